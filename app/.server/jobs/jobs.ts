import type { InvitationKind, Meeting } from "~/lib/shapes";

// Every background job's body (docs/decisions/0025-background-jobs.md), apart from the code that
// queues or runs it: producers import enqueue (queue.ts) and their job's type from here, and the
// consumer imports the producers, so no two of them import each other.

export type TextJob = { type: "document-text"; id: number };
/** A new version's text searched for the quotes comments on earlier ones point at (decision 0051). */
export type ReanchorJob = { type: "reanchor"; id: number };
/** A cross-database write made whole (decision 0045): the record in shard_followups. */
export type FollowupJob = { type: "followup"; id: number };
/** A new video transcribed by the speech-to-text provider (decision 0043). */
export type CaptionsJob = { type: "auto-captions"; id: number };
/** An item's title and abstract suggested in another language by the translation model (decision 0050). */
export type TranslateJob = { type: "translate-text"; id: number; lang: "en" | "ja" | "zh" };

export interface MeetingMailJob {
  type: "meeting-mail";
  /** The meeting as announced: a cancellation still goes out after its meeting was deleted with its host's account. */
  meeting: Meeting;
  kind: InvitationKind;
  email: string;
  language: string;
  /** This site's origin, for the stop link (absent in jobs queued before it was added). */
  origin?: string;
}

export interface ScoreBatchJob {
  type: "scores";
  run: number;
  batch: number;
  /** Member ids from..to, both included. */
  from: number;
  to: number;
  /** The moment every batch counts at, however late it runs. */
  asOf: number;
}

/** Conversations' rooms to read their facts again: a deleted member's, after a conversation id. */
export type RoomsRefreshJob = { type: "rooms-refresh"; member: number; after: number };

/** Who hears of a new public item, a stage (its uploader's followers, its goal's, saved searches) and a page at a time. */
export type NewItemStage = "followers" | "goals" | "searches";
export type NewItemJob = {
  type: "new-item";
  id: number;
  stage: NewItemStage;
  after: number;
  /** A new version of a public item: its uploader's followers are told, once per version (decision 0042). */
  version?: number;
};

/** Digests of one period ("daily:2026-11-26", "weekly:2026-11-23") for these members, counted up to `at` (the cron's moment). */
export type DigestJob = { type: "digest"; period: string; members: number[]; at: number };

/** A message reached a member with nothing unread in its conversation and no page open (decision 0040). */
export type MessageNotificationJob = {
  type: "message-notification";
  userId: number;
  conversationId: number;
  messageId: number;
  senderId: number;
};

export type Job =
  | DigestJob
  | MessageNotificationJob
  | NewItemJob
  | { type: "digests"; at: number }
  | { type: "notification-mail"; id: number }
  | ScoreBatchJob
  | MeetingMailJob
  | TextJob
  | ReanchorJob
  | CaptionsJob
  | TranslateJob
  | FollowupJob
  | RoomsRefreshJob
  | { type: "cleanup"; at: number }
  | { type: "messages-move" };
