import { z } from "zod";
import { SDG_NUMBERS } from "~/lib/sdg";

// The parts of the API's answers (app/api/answers.ts) that pages carry too, declared once here: the
// shapes the pages use (lib/shapes.ts) are inferred from what the API promises, so the two cannot
// drift apart.

export const id = z.int().positive();
export const time = z.int().describe("ms since the epoch");
export const accountType = z.union([z.literal(1), z.literal(2)]).describe("1 Researcher, 2 Investor or supporter; never changes");
export const goal = z.int().min(1).max(SDG_NUMBERS.length);
export const kind = z.enum(["document", "video"]);

export const memberSummary = z.object({ id, nick_name: z.string(), account_type: accountType, image: z.string().nullable() });

export const feedItem = z.object({
  id,
  kind,
  sdg: goal,
  title: z.string(),
  summary: z.string(),
  views: z.int(),
  likes: z.int(),
  created_at: time,
  owner_id: id,
  owner_name: z.string(),
  license: z
    .string()
    .nullable()
    .describe("its licence: an SPDX identifier (LicenseRef-All-Rights-Reserved for all rights reserved), null when not specified"),
  /** Pages only (decision 0050): the title and abstract are a machine's translation into the reader's language, accepted by the owner. */
  machine_text: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const rankedMember = z.object({ rank: z.int(), user_id: id, nick_name: z.string(), account_type: accountType, score: z.number() });

export const message = z.object({
  id: id.describe("increases in the order the conversation's messages were stored; unique across conversations"),
  conversation_id: id,
  sender_id: id,
  client_id: z.string(),
  body: z.string(),
  created_at: time,
});

export const comment = z.object({
  id,
  user_id: id,
  nick_name: z.string(),
  body: z.string().describe("empty when its author deleted it and replies keep it"),
  created_at: time,
  parent_id: id.nullable().describe("the thread's first comment, for a reply"),
  deleted: z.union([z.literal(0), z.literal(1)]),
  private: z.union([z.literal(0), z.literal(1)]).describe("1: seen only by the item's owner and the thread's authors"),
  anchor: z
    .union([
      z.object({ page: z.number().int(), exact: z.string(), prefix: z.string(), suffix: z.string() }).describe("a quote on a page"),
      z.object({ start: z.number(), end: z.number().nullable() }).describe("a moment of the video, in seconds"),
    ])
    .nullable()
    .describe("the passage it is on; null for the whole item, and for a reply"),
  anchor_version: z.number().int().nullable().describe("the item's version the passage is in: below the item's, on an earlier version"),
});

export const meetingSummary = z.object({
  id,
  uid: z.string().describe("the invitations' iCalendar UID"),
  host_id: id,
  host_name: z.string(),
  title: z.string(),
  agenda: z.string(),
  starts_at: time,
  duration_minutes: z.int().positive(),
  time_zone: z.string().describe("the IANA zone the meeting was scheduled in"),
  provider: z.string(),
  join_url: z.url(),
  sequence: z.int().min(0).describe("raised by every change, as in the invitations' iCalendar SEQUENCE"),
  cancelled_at: time.nullable(),
});

export const meeting = meetingSummary.extend({
  emails: z.array(z.email()).describe("attendee addresses: the host's only to see, empty for others"),
  participants: z.array(z.object({ id, nick_name: z.string() })),
});

export const savedSearch = z.object({
  id,
  q: z.string().describe("the words, as the search reads them"),
  kind: kind.nullable(),
  sdg: goal.nullable(),
  created_at: time,
});
export const following = z.object({
  goals: z.array(goal).describe("the goals whose new items notify you"),
  searches: z.array(savedSearch).describe("your saved searches, newest first: their new results notify you"),
});
