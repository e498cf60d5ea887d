// What the server hands the pages and what the live sockets carry: the shapes components and client
// hooks use, kept out of the server modules (app/.server) that the client build may never import.
// Those the API answers too are inferred from its declared answers (schemas/answer-parts.ts).

import type { z } from "zod";
import type { Size } from "./display-size";
import type { comment, feedItem, following, meeting, memberSummary, message, rankedMember, savedSearch } from "./schemas/answer-parts";

import type { StatRange, StatSeries, StatStep } from "./stats-periods";

/** A one-time notification that survives a redirect, so it shows without JavaScript too. */
export interface Flash {
  id: string;
  kind: "success" | "error" | "info";
  /** A translation key (values after `|`) */
  key: string;
}

/** The signed-in member as every page's shell shows them (root's loader); null when signed out. */
export interface ShellUser {
  id: number;
  nickName: string;
  image: string | null;
}

/** What components read of root's loader data (they do not import root.tsx, which renders them). */
export interface RootShellData {
  user: ShellUser | null;
  size: Size;
}

export type MemberSummary = z.infer<typeof memberSummary>;

export type FeedItem = z.infer<typeof feedItem>;

export type RankedMember = z.infer<typeof rankedMember>;

export type Message = z.infer<typeof message>;

/** What a live socket sends a page. */
export type LiveEvent =
  | { type: "message"; message: Message }
  | { type: "ack"; message: Message }
  | { type: "sync"; messages: Message[]; has_more: boolean }
  | { type: "error"; client_id?: string; error: string }
  | { type: "unread"; total: number; notifications: number };

/** A chart's geometry, computed on the server (app/.server/stats/chart.ts) and drawn as SVG. */
export interface ChartPoint {
  x: number;
  y: number;
  label: string;
  value: number;
}

export interface Chart {
  width: number;
  height: number;
  path: string;
  points: ChartPoint[];
  yTicks: { y: number; value: number }[];
  xTicks: { x: number; label: string }[];
  /** Where the plot area ends, for the axes. */
  left: number;
  right: number;
  bottom: number;
}

/** A period's statistics as a page shows them (app/.server/stats/views.ts). */
export interface StatsView {
  range: StatRange;
  per: StatStep;
  /** The member's time zone: the days are its. */
  zone: string;
  fromLabel: string;
  toLabel: string;
  totals: Partial<Record<StatSeries, number>>;
  /** The totals of the same length just before; null over all time. */
  previous: Partial<Record<StatSeries, number>> | null;
  charts: { series: StatSeries; chart: Chart }[];
}

/** A search a member saved: its new results notify them (decision 0040). */
export type SavedSearch = z.infer<typeof savedSearch>;

/** The goals a member follows and the searches they saved. */
export type Following = z.infer<typeof following>;

/** A comment as an item's page shows it (app/.server/social/social.ts). */
export type CommentRow = z.infer<typeof comment>;

/** A work on a member's ORCID record, as ORCID's public API summarises it. */
export interface OrcidWork {
  putCode: number;
  title: string;
  year: number | null;
  doi: string | null;
}

/** A meeting as its host and invited members see it, and as its invitation mails announce it (decision 0022). */
export type Meeting = z.infer<typeof meeting>;

/** What an invitation mail says of its meeting (RFC 5546's REQUEST, a higher SEQUENCE, or CANCEL). */
export type InvitationKind = "invite" | "update" | "cancel";
