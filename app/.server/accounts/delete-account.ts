import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { queueItemFiles, recordItemFollowups } from "~/.server/content/content";
import { followupJobs, recordFollowup } from "~/.server/followups/followups";
import { enqueue } from "~/.server/jobs/queue";
import { cancelHosted } from "~/.server/meetings/schedule";
import { avatarKeys } from "~/.server/members/avatar";
import { deleteVerificationPhotos } from "~/.server/members/verification";
import { memberInbox } from "~/.server/messaging/live";
import { refreshMemberRooms } from "~/.server/messaging/room-facts";
import { closeSessionSockets } from "~/.server/messaging/session-sockets";
import { describeError, logEvent } from "~/.server/observability/log";
import { allowRequest } from "~/.server/security/rate-limit";
import { deleteQueued, queueDeletions } from "~/.server/storage/files";
import { AccountError } from "./account-error";
import type { Caller } from "./accounts";
import { verifyPassword } from "./passwords";

// Deleting one's account (docs/decisions/0018-a-members-own-data.md): the password first; then, in
// one batch, the account becomes an anonymous row and everything of theirs goes, except the messages
// they sent, which stay in the other members' conversations under "deleted member". Their files
// (items, finished parts uploads, avatars) are queued for deletion in that batch and deleted from R2
// after it; what a failure leaves there, the cron's sweep deletes. An upload still arriving finds
// the account gone when it would make its item, and removes its own files (createContent).

/** Every statement that removes what the member had, besides the account row itself. */
function removals(userId: number, email: string) {
  const db = env.DB;
  const own = (table: string, column = "user_id") => db.prepare(`DELETE FROM ${table} WHERE ${column} = ?`).bind(userId);
  return [
    // The likes they gave stop counting on others' uploads before the rows go.
    db.prepare("UPDATE content SET likes = max(likes - 1, 0) WHERE id IN (SELECT content_id FROM likes WHERE user_id = ?)").bind(userId),
    own("content", "owner_id"),
    own("uploads", "owner_id"),
    own("sessions"),
    own("comments"),
    own("likes"),
    own("follows", "follower_id"),
    own("follows", "followee_id"),
    own("points"),
    own("credit_scores"),
    own("interests"),
    own("search_history"),
    own("blocks", "blocker_id"),
    own("blocks", "blocked_id"),
    own("member_roles"),
    own("profiles"),
    own("member_tags"),
    own("member_rewards"),
    own("notifications"),
    own("notification_channels"),
    own("goal_follows"),
    own("saved_searches"),
    own("digests"),
    // Meetings they host go (cancelled first, above; their lists with them); invitations to others' meetings too.
    own("meetings", "host_id"),
    own("meeting_participants"),
    own("invitation_budgets", "host_id"),
    own("verifications"),
    own("score_history"),
    // Reports they filed stay with the moderation record, without the words they wrote.
    db.prepare("UPDATE reports SET details = '' WHERE reporter_id = ?").bind(userId),
    // Last: the account's update above re-indexed it with its profile, which is gone now.
    db.prepare("DELETE FROM member_fts WHERE rowid = ?").bind(userId),
    db.prepare("DELETE FROM verification_codes WHERE email = ?").bind(email),
    db.prepare("DELETE FROM login_failures WHERE email = ?").bind(email),
  ];
}

export async function deleteAccount(userId: number, password: string, caller: Caller) {
  if (!(await allowRequest(env.AUTH_LIMITER, `delete:${caller.client}`))) throw new AccountError("rate_limited");
  const db = env.DB;
  const user = await db
    .prepare("SELECT email, password_hash FROM users WHERE id = ? AND deleted_at IS NULL")
    .bind(userId)
    .first<{ email: string; password_hash: string }>();
  if (!user || !(await verifyPassword(password, user.password_hash, config().pepper.byId)))
    throw new AccountError("current_password_wrong", "password");
  // The ID photos first and at once: the most sensitive files go before anything else.
  await deleteVerificationPhotos(caller.now, userId);
  const later = (work: Promise<unknown>) => (caller.waitUntil ? caller.waitUntil(work) : void work);
  await cancelHosted({ hostId: userId, language: caller.language, origin: caller.origin, now: caller.now, later });
  const { results: open } = await db
    .prepare("SELECT object_key, r2_upload_id, completed FROM uploads WHERE owner_id = ?")
    .bind(userId)
    .all<{ object_key: string; r2_upload_id: string; completed: number }>();
  const keys = [...open.filter((u) => u.completed).map((u) => u.object_key), ...(await avatarKeys(userId))];
  // The files' record goes in with the rows' removal: if R2 is not reached after it, the cron deletes them.
  // The items' files are read by that batch itself, so a version added meanwhile is among them.
  // So are what the other databases hold of them (decision 0045): their items' text and cues, and
  // their statistics (what they read stays counted on others' items, not who read it).
  const [queued, followups, memberFollowup] = await db.batch([
    queueItemFiles("owner_id = ?3", caller.now, userId),
    recordItemFollowups("owner_id = ?2", caller.now, userId),
    recordFollowup("stats-member", userId, caller.now),
    queueDeletions(keys, caller.now),
    db
      .prepare(
        `UPDATE users SET email = 'deleted-' || id || '@deleted.invalid', password_hash = '!', nick_name = '', organisation = NULL,
           image = NULL, language = 'en', membership = 'free', suspended_reason = NULL, deleted_at = ? WHERE id = ?`,
      )
      .bind(caller.now, userId),
    ...removals(userId, user.email),
  ]);
  keys.push(...((queued?.results ?? []) as { key: string }[]).map((row) => row.key));
  await closeSessionSockets(userId, null);
  // Their conversations stay readable and take no new message.
  await refreshMemberRooms(userId);
  // Their inbox held the last words of each of their conversations.
  await memberInbox(userId).clear();
  await deleteQueued(keys);
  await enqueue([...followupJobs(followups), ...followupJobs(memberFollowup)]).catch((error) =>
    logEvent("error", "account.followups_not_queued", { userId, error: describeError(error) }),
  );
  for (const upload of open.filter((u) => !u.completed)) {
    await env.FILES.resumeMultipartUpload(upload.object_key, upload.r2_upload_id)
      .abort()
      .catch(() => {});
  }
}
