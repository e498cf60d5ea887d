// Every limit a member meets, in one place with no zod in it: the schemas, the pages' hints and the
// server import these. Numbers the spec leaves open are chosen in the decision records named.

// Accounts (docs/decisions/0006-accounts-and-sessions.md)
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const EMAIL_MAX = 254;
export const NICK_NAME_MAX = 50;
/** The name ORCID gives with an iD, as kept (ORCID's own credit names are shorter). */
export const ORCID_NAME_MAX = 200;
export const ORGANISATION_MAX = 120;

// An upload's fields and files (spec sections 3 and 5)
export const TITLE_MAX = 200;
export const SUMMARY_MAX = 2000;
export const CONTENT_MAX = 20000;
export const KEYWORDS_MAX = 500;
/** Co-authors beyond the uploader, one per line with an optional ORCID iD: room for a large consortium paper's list. */
export const AUTHORS_MAX = 100;
/** Versions an item may have (issue 35). */
export const VERSIONS_MAX = 50;
/** A video's caption file (issue 36, decision 0043): its size and cues, and the languages one video may have. */
export const CAPTIONS_MAX_BYTES = 2 * 1024 * 1024;
export const CAPTIONS_MAX_CUES = 20_000;
export const CAPTIONS_MAX_LANGUAGES = 20;
/** Characters of one cue's text. */
export const CAPTION_CUE_MAX_CHARS = 1000;
/** How deep cue tags (<v>, <b>, <c.x>…) may nest: members' files use two or three; the parser walks them recursively. */
export const CAPTION_TAG_DEPTH_MAX = 32;
/**
 * Caption text one member may keep over all their videos, in MB as stored (issue 45, decision 0043):
 * an hour of speech is about 0.1 MB a language, so this is about 160 hours of captions; the rows
 * and their index take about twice it in D1, where one member could otherwise fill the database.
 */
export const CAPTIONS_MEMBER_MAX_MB = 16;
/** Cues a minute of video may have (fast speech is about 20), and how far past its end a cue may run. */
export const CAPTION_CUES_PER_MINUTE = 120;
export const CAPTION_END_SLACK_MS = 5000;
/** Cues the detail page's transcript shows at once (later ones are on its next pages). */
export const TRANSCRIPT_PAGE_CUES = 100;
/** Videos up to this size are sent to the speech-to-text provider (Workers AI takes the audio in one request). */
export const AUTO_CAPTIONS_MAX_MB = 25;
/**
 * The newest cues matching a query that a search looks at (the index's rowid order, newest first):
 * it bounds a search's work however common the word.
 */
export const SEARCH_CAPTION_WINDOW = 5000;
/** A version's note of what changed. */
export const VERSION_NOTE_MAX = 500;
export const AUTHORS_TEXT_MAX = 10_000;
/** DOIs have no length limit; real ones stay far below this. */
export const DOI_MAX = 300;
export const MAX_UPLOAD_MB = 100;
export const MAX_THUMBNAIL_MB = 5;
export const MAX_THUMBNAIL_PIXELS = 4000;
/** Resumable uploads a member may have open at once; the cron trigger ends abandoned ones. */
export const MAX_OPEN_UPLOADS = 5;

// What members write to each other (docs/decisions/0010-messaging.md)
export const COMMENT_MAX = 1000;
/** The same words from the same member on the same item within this time are one comment (a double post without a form key). */
export const COMMENT_REPEAT_WINDOW_MS = 60_000;
/** A quoted passage (docs/decisions/0051): a few sentences, as reviewers quote. */
export const QUOTE_MAX = 500;
/** The words kept on each side of a quote, to tell apart the same words twice on a page. */
export const QUOTE_CONTEXT = 32;
/** A moment of a video is within a day of its start. */
export const MOMENT_MAX_SECONDS = 24 * 60 * 60;
/** Anchored comments in one page of an item's AnnotationCollection. */
export const ANNOTATION_PAGE_SIZE = 50;
/** Anchored comments a new version's text is searched for per job run (the rest in the next). */
export const REANCHOR_BATCH = 200;
export const MESSAGE_MAX = 2000;
export const REPORT_DETAILS_MAX = 500;

/** A funder's name, and an award's number, address or title (decision 0052). */
export const FUNDER_NAME_MAX = 300;
export const AWARD_MAX = 500;
/** Funding references on one item. */
export const FUNDING_MAX = 20;
/** Words a member searches the registry of organisations with (decision 0052). */
export const ROR_QUERY_MAX = 200;
/** A ROR record is some 5 KB; one larger is not kept (decision 0052). */
export const ROR_RECORD_MAX_BYTES = 64_000;

/** Spec: at most five interests. */
export const MAX_INTERESTS = 5;

// A member's profile (docs/decisions/0016-profile-settings.md)
/** Names, fields of study, industry, phone, website, email: one line each. */
export const PROFILE_LINE_MAX = 120;
/** Address, research, registration purpose, an organisation's description. */
export const PROFILE_TEXT_MAX = 1000;
/** The earliest birthday taken (a typo guard; the future is refused too). */
export const BIRTHDAY_EARLIEST = "1900-01-01";

// Profile tags (docs/decisions/0017-membership-and-tags.md): how many each membership level may show.
export const TAG_LIMITS = { free: 3, regular: 8, premium: 15 } as const;
/** A tag of the member's own words. */
export const TAG_MAX = 30;

// Identity verification (docs/decisions/0020-identity-verification.md)
/** Each ID photo or extra file. */
export const VERIFICATION_PHOTO_MB = 5;
/** The whole submission as posted. */
export const VERIFICATION_BODY_MB = 25;
/** Extra files a personal submission may add. */
export const VERIFICATION_EXTRA_MAX = 3;
/** Days after a decision the ID photos are kept, then deleted. */
export const VERIFICATION_PHOTO_DAYS = 30;
/** A reviewer's reason for a rejection. */
export const REJECTION_REASON_MAX = 500;

// Avatars (docs/decisions/0021-avatars.md)
/** An avatar as posted: with JavaScript the browser's crop (small); without it, the photo itself. */
export const AVATAR_UPLOAD_MB = 10;
/**
 * Pixels decoded at most, for an avatar or a thumbnail's variants. A decoded pixel takes 4 bytes, held about four times over (the decoder's
 * memory, its copy out, the crop, the resizer's copy in): 4 MP is about 64 MB of the isolate's 128 MB.
 */
export const DECODE_MAX_MEGAPIXELS = 4;
/** The stored square's side, in pixels. */
export const AVATAR_SIZE = 256;
/**
 * Thumbnails are shown 16:9 on cards at most about 400 CSS pixels wide: variants at these widths
 * (1x and 2x screens) are made from the upload; a larger thumbnail than DECODE_MAX_MEGAPIXELS is served as sent.
 */
export const THUMBNAIL_WIDTHS = [400, 800] as const;

// Meetings (docs/decisions/0022-meetings.md)
export const MEETING_TITLE_MAX = 200;
export const MEETING_AGENDA_MAX = 2000;
/** The longest meeting, in minutes (12 hours). */
export const MEETING_MAX_MINUTES = 720;
/** Attendee emails per meeting. */
export const MEETING_MAX_ATTENDEES = 50;
/** Members invited per meeting. */
export const MEETING_MAX_PARTICIPANTS = 50;
/**
 * Outside addresses one host may invite in a day, over all their meetings (docs/decisions/0032-invitation-safety.md):
 * invitations carry the host's words to people who never signed up. This is an established host's budget:
 * an account past its first MEETING_NEW_ACCOUNT_DAYS, or one whose identity a reviewer approved.
 */
export const MEETING_OUTSIDE_INVITES_PER_DAY = 100;
/** A new account's budget of outside addresses a day: an account costs only an email code. */
export const MEETING_OUTSIDE_INVITES_NEW_ACCOUNT = 5;
/** How long an account is new for the outside invitations' budget, in days. */
export const MEETING_NEW_ACCOUNT_DAYS = 30;
/** How long before its start a meeting can be joined, in minutes. */
export const MEETING_JOIN_EARLY_MINUTES = 15;
/** How far ahead a meeting can be scheduled, in days. */
export const MEETING_MAX_DAYS_AHEAD = 730;

// Background jobs (docs/decisions/0025-background-jobs.md)
/** Members whose credit scores one queued job computes: bounds the work of each consumer invocation. */
export const SCORE_BATCH_MEMBERS = 1000;
/** How long finished recomputations are kept on record (their scores go with the next run's batches). */
export const SCORE_RUN_LOG_DAYS = 30;

// Search at any catalogue size (docs/decisions/0026-search-at-a-million.md)
/** The newest items matching a query's words that bm25 ranks (a common word may match a fifth of the catalogue). */
export const SEARCH_CANDIDATES = 5000;
/** The newest items of a kind a query of only 1-2 character words reads (they cannot use the trigram index). */
export const SEARCH_SHORT_WORD_WINDOW = 20_000;

// Documents' own text (docs/decisions/0030-document-text.md)
/**
 * PDFs read for their text at most: the reader holds the whole file, and peaks about 75 MB above it
 * (`npm run bench`), within the isolate's 128 MB. Larger ones say so on the item.
 */
export const PDF_TEXT_MAX_MB = 24;
/**
 * The longest run of bytes without a line break or "<" a PDF may hold to be read for its text. When a
 * file's cross-reference table is not where it says, pdf.js rebuilds it by reading the whole file
 * token by token, and a token as long as such a run costs about 37 bytes of memory per byte: 24 MB
 * of zeros took 800 MB. Compressed data breaks a run every hundred bytes or so; longer runs are
 * judged broken before pdf.js sees them.
 */
export const PDF_RUN_MAX_BYTES = 256 * 1024;
/**
 * What pdf.js may decode of one stream, and of all a file's streams, for its text (an image counts
 * only where pdf.js may read it as a page's contents, a font or a CMap: one it only draws it never
 * decodes for text). pdf.js reads text operators at about 1.7 MB a second: an 86 KB file with
 * 12 MB of them on one page kept an instance busy 7 s, so 8 MB in all is about 5 s of a queue job
 * at worst. Text needs far less: two typeset manuals counted 14 KB a page, 7 bytes a character of
 * their text, fonts and all, so DOCUMENT_TEXT_MAX_CHARS of such text is about 2 MB, and 8 MB about
 * 550 pages. A longer file is not read, as only the count, not which page a stream belongs to, is
 * known before pdf.js reads it.
 */
export const PDF_STREAM_MAX_INFLATED_MB = 2;
export const PDF_FILE_MAX_INFLATED_MB = 8;
/**
 * What each stream counts at least toward PDF_FILE_MAX_INFLATED_MB: inflating one to count it takes
 * workerd about 45 µs whatever its size, so 24 MB of tiny streams would keep the count itself busy
 * 20 s; at 1 KB each it stops after 8,192 streams, in under half a second. The two manuals held
 * under two streams a page.
 */
export const PDF_STREAM_MIN_COUNTED_KB = 1;
/**
 * What reading a PDF's references to the streams pdf.js reads for text may look at (a stream marked
 * as an image counts only when one refers to it), each reading counting at least
 * PDF_REFERENCE_MIN_CHARS: past it every image counts. A reading starts at each key, as one inside
 * a string cannot be told apart, so hostile patterns could repeat it over a whole file: so bounded,
 * 24 MB of them took workerd under 0.2 s. Ordinary files take a few hundred characters a page.
 */
export const PDF_REFERENCES_MAX_KB = 4096;
export const PDF_REFERENCE_MIN_CHARS = 64;
/** Characters of a document's text indexed (about 50,000 words); the pages past it say so on the item. */
export const DOCUMENT_TEXT_MAX_CHARS = 300_000;
/**
 * The newest documents with text whose text a search looks in: the text's index (trigrams without
 * positions) has each candidate checked against its whole text, so this bounds a search's work.
 */
export const SEARCH_TEXT_WINDOW = 2000;
/** Tries of a document's text extraction before it is marked failed (a broken or encrypted file is not retried). */
export const TEXT_EXTRACT_ATTEMPTS = 3;
/** Minutes a document may stay pending before the cron queues its extraction again. */
export const TEXT_REQUEUE_MINUTES = 15;

/** Digests (docs/decisions/0040-calm-notifications.md): due from this hour on the member's clocks. */
export const DIGEST_HOUR = 8;
/** Notifications one digest lists at most (the centre has them all). */
export const DIGEST_MAX_ITEMS = 100;
/** Members whose digest one cron run queues at most (the next run takes the rest). */
export const DIGEST_MEMBERS_PER_RUN = 5000;
/** Members per digest job. */
export const DIGEST_BATCH_MEMBERS = 50;
/** Days a digest's claim is kept (the next one of its kind starts where it ended). */
export const DIGEST_CLAIMS_KEEP_DAYS = 60;
/** Saved searches a member keeps at most. */
export const SAVED_SEARCHES_MAX = 20;
/** Members (or saved searches) one new-item job reads at once. */
export const NEW_ITEM_PAGE = 500;
/** Members one comment may mention. */
export const MENTIONS_MAX = 10;

// The databases (docs/decisions/0045-databases.md).
/** D1's most a database may hold (it cannot be raised). */
export const DATABASE_LIMIT_MB = 10 * 1024;
/** The cron logs a warning for a database past this share of the limit (`npm run capacity` flags it too). */
export const CAPACITY_WARN_SHARE = 0.7;
/** New items stop going to a text shard past this share: what it has may still grow (new versions, captions). */
export const TEXT_SHARD_CLOSED_SHARE = 0.8;
/** How long a search waits for a text shard before answering without it (and saying so). */
export const SHARD_SEARCH_TIMEOUT_MS = 3000;
/** A cross-database write's record older than this is taken as stopped halfway: the cron has it made whole. */
export const FOLLOWUP_GRACE_MINUTES = 15;

/** Scholar's limit on a PDF it reads whole: past it, it may index only the abstract (an open record's owner is told; decision 0049). */
export const SCHOLAR_PDF_BYTES = 5 * 1024 * 1024;

/** Machine suggestions of a title and abstract a member may ask for in a day (UTC; decision 0050). */
export const TEXT_SUGGESTIONS_PER_DAY = 20;

/** How long a suggestion may take before its owner is told it failed and may ask again (decision 0050). */
export const TEXT_SUGGESTION_WAIT_MS = 60 * 60 * 1000;
