import { env } from "~/.server/bindings";
import { claimFunding } from "~/.server/content/funding";
import { translator } from "~/.server/i18n/translate";
import { inspectImage } from "~/.server/images/inspect";
import { sendMail } from "~/.server/mail/mail";
import { noticeMail } from "~/.server/notifications/notice-mail";
import { mailsAtOnce, notify } from "~/.server/notifications/notifications";
import { Refused } from "~/.server/refused";
import { VERIFICATION_PHOTOS, type VerificationKind } from "~/lib/choices";
import { VERIFICATION_PHOTO_DAYS, VERIFICATION_PHOTO_MB } from "~/lib/limits";

// Identity verification (docs/decisions/0020-identity-verification.md). The ID photos are the most
// sensitive data here: kept apart from public files under unguessable keys, read only through
// verificationPhoto() (the owner or a reviewer), never cached, and deleted VERIFICATION_PHOTO_DAYS after the
// decision.

export type VerificationStatus = "pending" | "approved" | "rejected";

export interface Verification {
  id: number;
  user_id: number;
  kind: VerificationKind;
  fields: Record<string, string>;
  /** Photo name -> R2 key (empty once deleted). */
  photos: Record<string, string>;
  status: VerificationStatus;
  reason: string | null;
  submitted_at: number;
  decided_at: number | null;
  /** The ROR record the member had linked when they sent it. */
  ror: string | null;
}

type Row = Omit<Verification, "fields" | "photos"> & { fields: string; photos: string };
const parse = (row: Row): Verification => ({ ...row, fields: JSON.parse(row.fields), photos: JSON.parse(row.photos) });
const COLUMNS = "id, user_id, kind, fields, photos, status, reason, submitted_at, decided_at, ror";

export const verificationKindOf = (accountKind: string): VerificationKind => (accountKind === "facilitator" ? "corporate" : "personal");

/** Whether the member may submit (nothing pending or approved): checked before a body is read. */
export const mayVerify = (latest: Verification | null) => latest === null || latest.status === "rejected";

/** The member's latest submission, or null (not submitted). */
export async function latestVerification(userId: number): Promise<Verification | null> {
  const row = await env.DB.prepare(`SELECT ${COLUMNS} FROM verifications WHERE user_id = ? ORDER BY id DESC LIMIT 1`)
    .bind(userId)
    .first<Row>();
  return row ? parse(row) : null;
}

/** A posted photo: stored under `key`, or refused (too large, or not a PNG or JPEG by its bytes) and not stored. */
export type PostedPhoto = { key: string } | { refusal: string };

/** A photo over VERIFICATION_PHOTO_MB, refused unread past its limit. */
export const PHOTO_TOO_LARGE: PostedPhoto = { refusal: `validation.uploadSize|max=${VERIFICATION_PHOTO_MB}` };

/** Judges one photo by its bytes and stores it apart from public files; a refused one is not stored. */
export async function storePhoto(bytes: Uint8Array): Promise<PostedPhoto> {
  if (bytes.byteLength > VERIFICATION_PHOTO_MB * 1024 * 1024) return PHOTO_TOO_LARGE;
  const image = inspectImage(bytes);
  if (!image) return { refusal: "validation.imageType" };
  const key = `verification/${crypto.randomUUID()}`;
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: image.type } });
  return { key };
}

const storedKeys = (photos: Record<string, PostedPhoto[]>) =>
  Object.values(photos).flatMap((posted) => posted.flatMap((photo) => ("key" in photo ? [photo.key] : [])));

/** Removes the stored photos of a submission that is not kept (refused, or a form that was not valid). */
export async function discardPhotos(photos: Record<string, PostedPhoto[]>) {
  const keys = storedKeys(photos);
  if (keys.length) await env.FILES.delete(keys);
}

/** The required photos and the extra ones, by the names they are stored under. */
function namedPhotos(kind: VerificationKind, photos: Record<string, PostedPhoto[]>) {
  const required: readonly string[] = VERIFICATION_PHOTOS[kind];
  return [
    ...required.map((name) => [name, photos[name]?.[0]] as const),
    ...(photos.extra ?? []).map((photo, i) => [`extra${i + 1}`, photo] as const),
  ];
}

/** What is wrong with each photo field (a missing one, too large, or not a PNG or JPEG by its bytes), all at once. */
export function photoRefusals(kind: VerificationKind, photos: Record<string, PostedPhoto[]>): Record<string, string[]> {
  const refusals: Record<string, string[]> = {};
  for (const [name, photo] of namedPhotos(kind, photos)) {
    const field = name.startsWith("extra") ? "extra" : name;
    const message = !photo ? `validation.fieldEmpty|field=fields.${field}` : "refusal" in photo ? photo.refusal : null;
    if (message && !refusals[field]) refusals[field] = [message];
  }
  return refusals;
}

/**
 * Keeps a submission whose photos were stored as they arrived (verification-form.ts): refused beside
 * a photo that is not one, and (409) while a submission is pending or approved (the unique index
 * decides, so two at once cannot both pass). The photos of a submission not kept are removed again.
 */
export async function submitVerification(
  userId: number,
  kind: VerificationKind,
  fields: Record<string, string>,
  posted: Record<string, PostedPhoto[]>,
  now: number,
): Promise<void> {
  const [first] = Object.entries(photoRefusals(kind, posted));
  const photos: Record<string, string> = {};
  for (const [name, photo] of namedPhotos(kind, posted)) if (photo && "key" in photo) photos[name] = photo.key;
  const inserted = first
    ? null
    : await env.DB.prepare(
        // An organisation's ROR record goes with it, for the reviewer to confirm (decision 0052).
        `INSERT OR IGNORE INTO verifications (user_id, kind, fields, photos, status, submitted_at, ror)
         VALUES (?1, ?2, ?3, ?4, 'pending', ?5, CASE WHEN ?2 = 'corporate' THEN (SELECT organisation_ror FROM users WHERE id = ?1) END) RETURNING id`,
      )
        .bind(userId, kind, JSON.stringify(fields), JSON.stringify(photos), now)
        .first();
  if (inserted) return;
  await discardPhotos(posted);
  if (first) throw new Refused(first[1][0] ?? "validation.imageType", { field: first[0] });
  throw new Refused("verification.notOpen", { status: 409 });
}

/** The pending submissions, oldest first, with who sent them. */
export async function verificationQueue() {
  const { results } = await env.DB.prepare(
    `SELECT v.id, v.user_id, v.kind, v.fields, v.photos, v.status, v.reason, v.submitted_at, v.decided_at, v.ror, u.nick_name
       FROM verifications v JOIN users u ON u.id = v.user_id WHERE v.status = 'pending' ORDER BY v.submitted_at, v.id LIMIT 100`,
  ).all<Row & { nick_name: string }>();
  return results.map((row) => ({ ...parse(row), nick_name: row.nick_name }));
}

/**
 * A reviewer's decision on a pending submission (false when it is not pending any more: of two
 * reviewers at once, one decides; and false on their own: nobody verifies themselves). The member is told by mail, in their language; the status page
 * shows it too.
 */
export async function decideVerification(
  reviewerId: number,
  id: number,
  decision: { decision: "approve"; confirm_ror?: boolean } | { decision: "reject"; reason: string },
  now: number,
  later: (promise: Promise<unknown>) => void = () => {},
) {
  const status = decision.decision === "approve" ? "approved" : "rejected";
  const reason = decision.decision === "reject" ? decision.reason : null;
  const db = env.DB;
  // The ROR record sent with it, when the reviewer confirms it: read first, so a decision that
  // confirms nothing sends no statement for it.
  const ror =
    decision.decision === "approve" && decision.confirm_ror
      ? await db.prepare("SELECT ror FROM verifications WHERE id = ?").bind(id).first<string | null>("ror")
      : null;
  const [result] = await db.batch([
    db
      .prepare(
        `UPDATE verifications SET status = ?1, reason = ?2, decided_at = ?3, decided_by = ?4 WHERE id = ?5 AND status = 'pending' AND user_id <> ?4
         RETURNING user_id, (SELECT email FROM users WHERE id = user_id) AS email, (SELECT language FROM users WHERE id = user_id) AS language`,
      )
      .bind(status, reason, now, reviewerId, id),
    ...(ror
      ? [
          // Confirmed in the same transaction, only by the decision just made, while the member
          // still links that record (the badge shows while they keep it).
          db
            .prepare(
              `UPDATE users SET organisation_ror_confirmed = ?1
               WHERE organisation_ror = ?1 AND id = (SELECT user_id FROM verifications WHERE id = ?2 AND status = 'approved' AND decided_at = ?3 AND decided_by = ?4)`,
            )
            .bind(ror, id, now, reviewerId),
          // Its fund account now speaks for the organisation: the works naming it are theirs to
          // confirm (recomputed for the record, whoever decided: the same answer twice).
          claimFunding(ror),
        ]
      : []),
  ]);
  const decided = result?.results[0] as { user_id: number; email: string; language: string } | undefined;
  if (!decided) return false;
  const note = { userId: decided.user_id, kind: "verification", event: status, subjectId: id, actorId: null } as const;
  await notify([{ ...note, key: `verification:${id}` }], now);
  const t = translator(decided.language);
  const text = status === "approved" ? t("verification.approvedMail") : t("verification.rejectedMail", { reason });
  // Mailed at once unless the member chose to hear of it otherwise (in the app, in a digest).
  if (await mailsAtOnce(decided.user_id, "verification"))
    later(
      noticeMail({
        member: decided.user_id,
        to: decided.email,
        language: decided.language,
        kind: "verification",
        subject: t("verification.mailSubject"),
        paragraphs: [text],
        target: "/personal/verification",
      })
        .then(sendMail)
        .catch((error) => console.error("verification mail", error)),
    );
  return true;
}

/** A submission's photo, to its owner or a reviewer only (null for anyone else, or none by that name). */
export async function verificationPhoto(viewer: { id: number; roles: string[] }, id: number, name: string) {
  const key = await photoKey(viewer, id, name);
  return key ? env.FILES.get(key) : null;
}

/** The R2 key of one photo, for its owner or a reviewer only; null for anyone else (or a photo that is gone). */
async function photoKey(viewer: { id: number; roles: string[] }, id: number, name: string) {
  const row = await env.DB.prepare("SELECT user_id, photos FROM verifications WHERE id = ?")
    .bind(id)
    .first<{ user_id: number; photos: string }>();
  if (!row || (row.user_id !== viewer.id && !viewer.roles.includes("reviewer"))) return null;
  const photos = JSON.parse(row.photos) as Record<string, string>;
  return Object.hasOwn(photos, name) ? (photos[name] ?? null) : null;
}

/** Deletes the photos of decisions older than the retention, and of every submission of `userId` (account deletion). */
export async function deleteVerificationPhotos(now: number, userId?: number) {
  const db = env.DB;
  const statement =
    userId === undefined
      ? db
          .prepare("SELECT id, photos FROM verifications WHERE decided_at < ? AND photos_deleted_at IS NULL LIMIT 500")
          .bind(now - VERIFICATION_PHOTO_DAYS * 86_400_000)
      : db.prepare("SELECT id, photos FROM verifications WHERE user_id = ? AND photos_deleted_at IS NULL").bind(userId);
  const { results } = await statement.all<{ id: number; photos: string }>();
  for (const row of results) {
    await env.FILES.delete(Object.values(JSON.parse(row.photos) as Record<string, string>));
    await db.prepare("UPDATE verifications SET photos = '{}', photos_deleted_at = ? WHERE id = ?").bind(now, row.id).run();
  }
  return results.length;
}
