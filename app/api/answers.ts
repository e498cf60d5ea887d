import { z } from "zod";
import { POINT_RULES, SCORE_INPUTS } from "~/lib/credit-score";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from "~/lib/notifications";
import { MEMBERSHIP_LEVELS } from "~/lib/profile-tags";
import { REWARDS } from "~/lib/rewards";
import {
  accountType,
  comment,
  feedItem,
  following,
  goal,
  id,
  kind,
  meeting,
  meetingSummary,
  memberSummary,
  message,
  rankedMember,
  time,
} from "~/lib/schemas/answer-parts";
import { verificationFields } from "~/lib/schemas/verification";
import { ITEM_SERIES, STAT_RANGES, STAT_SERIES, STAT_STEPS } from "~/lib/stats-periods";
import { snakeName, snakeShape } from "./casing";

// What the API answers, as zod schemas: the routes declare them per status, the document is
// generated from them, and the contract tests check every answer against that document. Objects
// are closed (no field a handler adds goes undocumented).

export const session = z.object({ token_type: z.literal("Bearer"), access_token: z.string(), user: memberSummary });

export const account = z.object({
  user: memberSummary.extend({
    email: z.email(),
    kind: z.enum(["individual", "facilitator"]),
    organisation: z.string().nullable(),
    membership: z.string(),
    language: z.string(),
    orcid: z.string().nullable().describe("the ORCID iD linked by signing in to ORCID (Settings), or null"),
  }),
});

export const feedPage = z.object({ items: z.array(feedItem), has_more: z.boolean() });

export const content = z.object({
  content: feedItem.extend({
    content: z.string(),
    keywords: z.string(),
    publicize: z.union([z.literal(0), z.literal(1)]),
    open_record: z
      .union([z.literal(0), z.literal(1)])
      .describe("1: its owner lets anyone read its record, without an account, where the site allows open records"),
    on_behalf: z
      .union([z.literal(0), z.literal(1)])
      .describe("1: its uploader is not an author and put it up for the authors listed, who alone are cited"),
    file_size: z.int(),
    file_type: z.string(),
    thumbnail_type: z.string(),
    updated_at: time,
    hidden_at: time.nullable().describe("set while a moderator keeps the item hidden (then only its owner sees it)"),
    file_url: z.string(),
    thumbnail_url: z.string(),
    doi: z.string().nullable().describe("the work's DOI, bare and in lower case; link it as https://doi.org/{doi}"),
    authors: z
      .array(
        z.object({
          name: z.string(),
          orcid: z.string().nullable().describe("0000-0000-0000-000X, checked by its check digit"),
          verified: z.boolean().describe("true when a member linked this iD by signing in to ORCID; a typed iD alone is unverified"),
        }),
      )
      .describe("co-authors beyond the uploader (owner_name), in the order given"),
    owner_orcid: z
      .string()
      .nullable()
      .describe("the uploader's ORCID iD, authenticated by signing in to ORCID; link it as https://orcid.org/{owner_orcid}"),
    version: z.int().describe("the number of its latest version, whose file file_url serves; GET /contents/{id}/versions lists them"),
    published_year: z.int().nullable().describe("the year the work was published, when the uploader gave it (citations use it)"),
    citation_url: z.string().describe("GET it for the item's citation in BibTeX, RIS, CSL-JSON, APA or Harvard"),
    language: z
      .string()
      .nullable()
      .describe("the BCP 47 tag of the language its title and summary are written in; null for items from before it was asked"),
    texts: z
      .array(
        z.object({
          lang: z.enum(["en", "ja", "zh"]),
          title: z.string(),
          summary: z.string(),
          source: z.enum(["author", "machine"]).describe("author: its owner's translation; machine: a machine's, which its owner accepted"),
        }),
      )
      .describe("its title and summary in the interface's other languages"),
    text: z
      .object({
        state: z.enum(["pending", "done", "none"]).describe("pending until the background job has read the PDF"),
        note: z
          .enum(["no-text", "encrypted", "broken", "too-large", "failed"])
          .nullable()
          .describe("why there is no text: a scanned PDF, a password, a damaged file, over the size read, or failed after retries"),
        pages: z.int().nullable().describe("pages whose text is searchable"),
        page_count: z.int().nullable().describe("pages in the file; more than pages when the text passed the limit"),
      })
      .nullable()
      .describe("the document's text extraction, for its owner; null for videos and for other members"),
  }),
});

export const prefill = z.object({
  doi: z.string().describe("bare, in lower case"),
  title: z.string().nullable(),
  authors: z
    .array(z.object({ name: z.string(), orcid: z.string().nullable() }))
    .describe("the record's authors but the member (by their linked iD), as the upload's authors field takes them"),
  summary: z.string().nullable().describe("the record's abstract, as plain text"),
  keywords: z.string().nullable(),
  year: z.int().nullable(),
});

export const citation = z.object({
  format: z.enum(["bibtex", "ris", "csl-json", "apa", "harvard"]),
  text: z.string().describe("the citation as the format writes it (CSL-JSON: a JSON array as text)"),
});

export const created = z.object({ id });

export const uploadStatus = z.object({
  id: z.string(),
  size: z.int(),
  part_size: z.int(),
  parts: z.array(z.int()),
  completed: z.boolean(),
});
export const partStored = z.object({ part: z.int() });
export const uploadCompleted = z.object({ completed: z.literal(true) });

const mark = "matches are wrapped in U+0001 and U+0002";
const contentHit = z.object({
  id,
  kind,
  sdg: goal,
  title: z.string().describe(mark),
  snippet: z.string().describe(mark),
  owner_name: z.string(),
  created_at: time,
  passage: z
    .union([
      z.object({ text: z.string().describe(mark), page: z.int().describe("open the file at it: {file_url}#page={page}") }),
      z.object({
        text: z.string().describe(`the cue said there; ${mark}`),
        time: z.int().describe("the second the cue starts at: play the file from {file_url}#t={time}"),
        lang: z.string().describe("the captions' language (BCP 47)"),
      }),
    ])
    .nullable()
    .describe(
      "where a document's own text (its page) or a video's captions (the second) matched, when the fields lack a word of the query",
    ),
  matched_lang: z
    .enum(["en", "ja", "zh"])
    .nullable()
    .describe("the language of the title and snippet when they are a translation that matched (not the original); null for the original"),
});
const memberHit = z.object({
  id,
  nick_name: z.string().describe(mark),
  organisation: z.string().nullable(),
  account_type: accountType,
  verified: z.union([z.literal(0), z.literal(1)]),
  orcid: z.string().nullable().describe("the ORCID iD they linked by signing in to ORCID"),
});

export const searchResults = z.object({
  query: z.object({
    q: z.string(),
    tab: z.enum(["documents", "videos", "members"]),
    sdg: goal.optional(),
    since: z.enum(["week", "month", "year"]).optional(),
    type: z.enum(["1", "2"]).optional(),
    page: z.int(),
  }),
  results: z.array(z.union([contentHit, memberHit])).describe("documents and videos, or members, as the tab says"),
  has_more: z.boolean(),
  partial: z
    .boolean()
    .describe("true when a part of the documents' text or captions could not be searched just now: the results may lack some"),
});

export const history = z.object({ history: z.array(z.string()) });

export const comments = z.object({ comments: z.array(comment) });
export const social = z.object({ liked: z.boolean(), following: z.boolean(), followers: z.int(), comments: z.array(comment) });
export const followers = z.object({ followers: z.int() });

const breakdown = z.object(
  Object.fromEntries(
    SCORE_INPUTS.map((input) => [snakeName(input), z.object({ count: z.int(), coefficient: z.number(), product: z.number() })]),
  ),
);
export const ranking = z.object({
  ranking: z.array(rankedMember),
  me: z
    .object({
      score: z.number(),
      breakdown,
      computed_at: time.describe("when this score was counted: now"),
      rank: z.int().nullable().describe("the place this score takes in the ranking; null before the first recomputation"),
      ranked_at: time.nullable().describe("when the ranking was recomputed; null before the first recomputation"),
    })
    .describe("your own score, counted on demand from the same rule as the ranking"),
});

const reward = z.object({ reward: z.enum(REWARDS.map((r) => r.key)), awarded_at: time });

const reasons = Object.keys(POINT_RULES).map(snakeName) as [string, ...string[]];
export const points = z.object({
  awards: z.array(z.object({ reason: z.enum(reasons), amount: z.int(), day: z.iso.date(), created_at: time })),
  period_total: z.int(),
  rules: z.object(Object.fromEntries(reasons.map((reason) => [reason, z.object({ amount: z.int(), daily_cap: z.int() })]))),
  rewards: z.array(reward).describe("milestones reached, newest first"),
});

const profileTag = z.object({
  id,
  tag: z.string().describe("a default tag's key (innovation, health, …; shown translated) or the member's own words"),
  custom: z.union([z.literal(0), z.literal(1)]),
});
export const tags = z.object({
  tags: z.array(profileTag),
  level: z.enum(MEMBERSHIP_LEVELS),
  limit: z.int().describe("how many tags the membership level allows"),
});

export const memberPage = z.object({
  member: memberSummary.extend({
    kind: z.enum(["individual", "facilitator"]),
    organisation: z.string().nullable(),
    organisation_ror: z
      .string()
      .nullable()
      .describe("the organisation's (or affiliation's) ROR id, https://ror.org/…, when the member picked it"),
    organisation_ror_name: z.string().nullable().describe("the registry's name for it"),
    organisation_ror_confirmed: z
      .union([z.literal(0), z.literal(1)])
      .describe("1 when a reviewer confirmed that ROR record with the member's identity verification"),
    membership: z.enum(MEMBERSHIP_LEVELS),
    verified: z.union([z.literal(0), z.literal(1)]).describe("1 once a reviewer approved their identity"),
    created_at: time,
    followers: z.int(),
    following: z.int(),
    uploads: z.int(),
    orcid: z
      .string()
      .nullable()
      .describe(
        "their ORCID iD (0000-0000-0000-000X): the one they linked by signing in to ORCID, else one typed in their public profile; link it as https://orcid.org/{orcid}",
      ),
    orcid_verified: z
      .union([z.literal(0), z.literal(1)])
      .describe("1 when the iD was authenticated by signing in to ORCID; 0 for a typed one, which proves nothing"),
  }),
  is_self: z.boolean(),
  viewer_follows: z.boolean(),
  viewer_blocks: z.boolean().describe("whether you block this member"),
  uploads: z.array(feedItem).describe("the 50 newest; publicized only, unless they are your own"),
  co_authored: z
    .array(feedItem)
    .describe("the 50 newest items others uploaded that list the member's linked ORCID iD among their co-authors"),
  followers: z.array(memberSummary).describe("the 50 newest"),
  following: z.array(memberSummary).describe("the 50 newest"),
  interests: z.array(goal),
  profile: z
    .object({
      first_name: z.string(),
      middle_name: z.string(),
      family_name: z.string(),
      academic: z.string(),
      research: z.string(),
      country: z.string().describe("ISO 3166-1 alpha-2"),
    })
    .nullable()
    .describe("what the member chose to show of their profile; null when they show nothing"),
  tags: z.array(profileTag),
  rewards: z.array(reward),
});

export const interests = z.object({ interests: z.array(goal) });
export const recommendations = feedPage.extend({ page: z.int() });

export const sentMessage = z.object({ message });
export const messages = z.object({ messages: z.array(message), has_more: z.boolean() });
const conversation = z.object({
  id,
  other: memberSummary,
  last_message: message.pick({ id: true, sender_id: true, body: true, created_at: true }).nullable(),
  unread_count: z.int(),
});
export const conversations = z.object({ conversations: z.array(conversation) });
export const startedConversation = z.object({ conversation });

export const avatar = z.object({
  image: z.string().nullable().describe("the avatar's address, or null for the default picture"),
});

export const profileSettings = z.object({
  account_type: accountType,
  kind: z.enum(["individual", "facilitator"]),
  nick_name: z.string(),
  profile: z
    .object({
      sex: z.enum(["female", "male", "other", "unsaid"]),
      birthday: z.iso.date(),
      address: z.string(),
      first_name: z.string(),
      middle_name: z.string(),
      family_name: z.string(),
      country: z.string(),
      nationality: z.string(),
      academic: z.string(),
      research: z.string(),
      website: z.string(),
      phone: z.string(),
      purpose: z.string(),
      abbreviation: z.string().nullable(),
      industry: z.string().nullable(),
      organisation_phone: z.string().nullable(),
      description: z.string().nullable(),
      legal: z.string().nullable(),
      organisation_email: z.string().nullable(),
      public: z.union([z.literal(0), z.literal(1)]),
      updated_at: time,
      orcid: z.string().nullable().describe("optional; shown on the member's page when the profile is public"),
    })
    .nullable(),
});

export const verificationStatus = z.object({
  kind: z.enum(["personal", "corporate"]),
  status: z.enum(["none", "pending", "approved", "rejected"]),
  reason: z.string().nullable().describe("why a rejected submission was rejected"),
});

const queued = z.object({
  id,
  user_id: id,
  nick_name: z.string(),
  photos: z.array(z.object({ name: z.string(), url: z.string() })),
  status: z.literal("pending"),
  reason: z.null(),
  submitted_at: time,
  decided_at: z.null(),
  ror: z.string().nullable().describe("the ROR record the member linked when they sent it, which approving may confirm (`confirm_ror`)"),
});
/** A submission's fields as the member entered them, named as POST /verification takes them (a closed object per kind). */
const submitted = (kind: keyof typeof verificationFields) =>
  queued.extend({ kind: z.literal(kind), fields: snakeShape(verificationFields[kind], () => z.string()) });

export const reviewQueue = z.object({ queue: z.array(z.discriminatedUnion("kind", [submitted("personal"), submitted("corporate")])) });

/** Every refusal: the code (400 bad input with errors per field, 401 wrong email or password, 4010 no or expired token, …) and a translated message. */
export const apiError = z.object({
  code: z.union([400, 401, 403, 404, 405, 409, 413, 415, 416, 429, 500, 4010].map((code) => z.literal(code))),
  message: z.string().describe("translated (Accept-Language)"),
  errors: z.record(z.string(), z.array(z.string())).optional().describe("messages per field"),
  request_id: z
    .string()
    .optional()
    .describe("on a failure, and on what the worker refuses before the API (413, another site's 403): quote it when reporting"),
});

export const meetings = z.object({
  upcoming: z.array(meetingSummary).describe("not ended and not cancelled, soonest first"),
  past: z.array(meetingSummary).describe("ended or cancelled, latest first"),
});

/** A meeting as its host and invited members see it (declared beside the pages' shape of it). */
export { meeting };

export const meetingCreated = z.object({ id });

export const meetingJoin = z.object({
  join_url: z.url(),
  start_url: z.url().nullable().describe("the provider's host link, asked for now (it expires): the host's only, else null"),
  joinable: z.boolean().describe("from the configured minutes before the start until its end, unless cancelled"),
});

export const notifications = z.object({
  notifications: z.array(
    z.object({
      id,
      kind: z.enum(NOTIFICATION_KINDS),
      event: z.string().describe("within the kind: invite, update, cancel, follow, like, comment, approved, rejected"),
      text: z.string().describe("the notification as a sentence in your language"),
      target: z.string().describe("the page it is about, a path on this site"),
      subject_id: id.nullable(),
      subject_title: z.string().nullable(),
      actor_id: id.nullable(),
      actor_name: z.string().nullable(),
      created_at: time,
      read_at: time.nullable(),
    }),
  ),
});

export const unreadCount = z.object({ count: z.int().min(0) });

export const markedRead = z.object({ changed: z.int().min(0) });

const day = z.iso.date().describe("a day on the member's clocks (their time zone)");
const counts = (names: readonly string[]) => z.object(Object.fromEntries(names.map((name) => [name, z.int()])));
const overview = (names: readonly string[]) => ({
  range: z.enum(STAT_RANGES),
  per: z.enum(STAT_STEPS),
  zone: z.string().describe("the member's time zone: days start at its midnight"),
  from: day,
  to: day,
  buckets: z.array(day).describe("each bucket's first day (a day, a week's Monday, a month's first)"),
  series: z.object(Object.fromEntries(names.map((name) => [name, z.array(z.int())]))).describe("per series, a count per bucket"),
  totals: counts(names),
  previous: counts(names).nullable().describe("the totals of the same length just before; null over all time"),
});
export const memberStats = z.object({
  ...overview(STAT_SERIES),
  items: z
    .array(z.object({ id, title: z.string(), kind, counts: counts(ITEM_SERIES) }))
    .describe("your items over the period, sorted as asked, 50 a page"),
  has_more: z.boolean(),
});
export const itemStats = z.object({
  ...overview(ITEM_SERIES),
  readers: z
    .object({ researchers: z.int(), supporters: z.int() })
    .describe("members who viewed it, once a day each, by account type; never who"),
});
export const scoreHistory = z.object({
  history: z.array(z.object({ as_of: time.describe("the moment the recomputation counted at"), score: z.number(), rank: z.int() })),
});

const channel = z
  .enum(NOTIFICATION_CHANNELS)
  .describe("app: in the app only; mail: also by mail at once; daily, weekly: also in that digest; off: not at all");
export const notificationChannels = z.object({
  channels: z
    .object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channel])))
    .describe("every kind's channel, yours or the default"),
});
export const channelChanges = z
  .object({ channels: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channel.optional()]))).strict() })
  .describe("the kinds to change; the others keep their channel");

/** The goals a member follows and the searches they saved (declared beside the pages' shape of it). */
export { following };
export const savedSearchId = z.object({ id });
