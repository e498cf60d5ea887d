import { FAILURE_WINDOW_MS } from "~/.server/accounts/login-attempts";
import { ORCID_SIGNUP_MS, ORCID_STATE_MS } from "~/.server/accounts/orcid";
import { env } from "~/.server/bindings";
import { measureCapacity } from "~/.server/cron/capacity";
import { statsDb } from "~/.server/databases";
import { deleteVerificationPhotos } from "~/.server/members/verification";
import { PUBLISHED_RUN } from "~/.server/ranking/ranking";
import { STAT_HITS_KEEP_MS } from "~/.server/stats/fold";
import { sweepViews } from "~/.server/stats/item-views";
import { deleteQueued } from "~/.server/storage/files";
import { SESSION_IDLE_MS } from "~/lib/config";
import { DIGEST_CLAIMS_KEEP_DAYS, SCORE_RUN_LOG_DAYS } from "~/lib/limits";

// What expires is removed by the cron trigger, in bounded batches so one run stays short however
// much has piled up (the next run, 15 minutes later, takes the next batch).

export const CLEANUP_BATCH = 500;
/** Uploads (R2 calls each) per run. */
export const UPLOAD_CLEANUP_BATCH = 50;
/** A resumable upload not turned into an item by then is abandoned (a member can resume for a day). */
export const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface AbandonedUpload {
  id: string;
  object_key: string;
  r2_upload_id: string;
  completed: number;
}

export async function cleanUp(now: number) {
  const bucket = env.FILES;
  const db = env.DB;
  const bounded = (table: string, where: string, from = db) =>
    from.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${CLEANUP_BATCH})`);
  // The readings folded lately are the statistics database's (decision 0045), pruned beside the core's batch.
  const [[sessions, codes, failures, scoreRuns, digests, orcidStates, orcidSignups], statHits] = await Promise.all([
    db.batch([
      bounded("sessions", "expires_at <= ?1 OR last_seen_at < ?2").bind(now, now - SESSION_IDLE_MS),
      bounded("verification_codes", "expires_at <= ?1").bind(now),
      bounded("login_failures", "last_failed_at <= ?1").bind(now - FAILURE_WINDOW_MS),
      // Older than the log window and not the one shown (its batch records go with it).
      bounded("score_runs", `started_at < ?1 AND id < coalesce(${PUBLISHED_RUN}, 0)`).bind(now - SCORE_RUN_LOG_DAYS * 86_400_000),
      // A digest's claim is needed until the next digest of its kind starts from it.
      bounded("digests", "claimed_at < ?1").bind(now - DIGEST_CLAIMS_KEEP_DAYS * 86_400_000),
      // Trips to ORCID begun before they moved to a cookie (decision 0041), and iDs whose sign-up never finished.
      bounded("orcid_states", "created_at < ?1").bind(now - ORCID_STATE_MS),
      bounded("orcid_signups", "created_at < ?1").bind(now - ORCID_SIGNUP_MS),
    ]),
    bounded("stat_hits", "at < ?1", statsDb())
      .bind(now - STAT_HITS_KEEP_MS)
      .run(),
  ]);
  // The count on cards a fold did not copy to the core (it stopped between its two writes).
  const views = await sweepViews(now, CLEANUP_BATCH);
  const { results: uploads } = await db
    .prepare(`SELECT id, object_key, r2_upload_id, completed FROM uploads WHERE created_at < ? LIMIT ${UPLOAD_CLEANUP_BATCH}`)
    .bind(now - UPLOAD_MAX_AGE_MS)
    .all<AbandonedUpload>();
  for (const upload of uploads) {
    if (upload.completed) await bucket.delete(upload.object_key);
    else
      await bucket
        .resumeMultipartUpload(upload.object_key, upload.r2_upload_id)
        .abort()
        .catch(() => {}); // already gone in R2
  }
  if (uploads.length > 0) {
    await db.batch(uploads.map((u) => db.prepare("DELETE FROM uploads WHERE id = ?").bind(u.id)));
  }
  const verificationPhotos = await deleteVerificationPhotos(now);
  // Files whose rows went while R2 could not be reached (a deletion that stopped halfway).
  const { results: orphans } = await db
    .prepare(`SELECT key FROM object_deletions ORDER BY queued_at LIMIT ${CLEANUP_BATCH}`)
    .all<{ key: string }>();
  await deleteQueued(orphans.map((row) => row.key));
  // And each database measured (decision 0045): new items leave a text shard nearing D1's limit.
  await measureCapacity(now);
  return {
    sessions: sessions?.meta.changes ?? 0,
    codes: codes?.meta.changes ?? 0,
    loginFailures: failures?.meta.changes ?? 0,
    uploads: uploads.length,
    verificationPhotos,
    scoreRuns: scoreRuns?.meta.changes ?? 0,
    statHits: statHits.meta.changes ?? 0,
    viewsCopied: views.copied,
    digests: digests?.meta.changes ?? 0,
    orcid: (orcidStates?.meta.changes ?? 0) + (orcidSignups?.meta.changes ?? 0),
    objects: orphans.length,
  };
}
