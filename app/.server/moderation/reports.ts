import { revokeAllSessions } from "~/.server/accounts/sessions";
import { findContent } from "~/.server/content/content";
import { translator } from "~/.server/i18n/translate";
import { sendMail } from "~/.server/mail/mail";
import { closeSessionSockets } from "~/.server/messaging/session-sockets";
import type { ReportReason, ReportTarget } from "~/lib/choices";
import type { Decision } from "~/lib/schemas/report";

/**
 * Reports and the moderators' decisions. A member reports only what they can see; one report per
 * member and target (a repeat changes nothing). A decision resolves every open report on its target
 * in the same batch as its effect, so two moderators deciding at once cannot half-apply either.
 */

export const QUEUE_SIZE = 50;

/** Who wrote the target (the member a warning or suspension is for), if the reporter may see it. */
async function visibleAuthor(db: D1Database, type: ReportTarget, id: number, viewerId: number): Promise<number | null> {
  if (type === "content") return (await findContent(db, id, viewerId))?.owner_id ?? null;
  if (type === "member") return (await db.prepare("SELECT id FROM users WHERE id = ?").bind(id).first<{ id: number }>())?.id ?? null;
  if (type === "comment") {
    const row = await db.prepare("SELECT content_id, user_id FROM comments WHERE id = ? AND hidden_at IS NULL").bind(id).first<{
      content_id: number;
      user_id: number;
    }>();
    return row && (await findContent(db, row.content_id, viewerId)) ? row.user_id : null;
  }
  const row = await db
    .prepare(
      `SELECT m.sender_id FROM messages m JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.user_id = ?2
       WHERE m.id = ?1 AND m.hidden_at IS NULL`,
    )
    .bind(id, viewerId)
    .first<{ sender_id: number }>();
  return row?.sender_id ?? null;
}

/** Files a report; false when the target does not exist for the reporter (or is their own). */
export async function fileReport(
  db: D1Database,
  reporterId: number,
  report: { target_type: ReportTarget; target_id: number; reason: ReportReason; details: string },
  now: number,
): Promise<boolean> {
  const author = await visibleAuthor(db, report.target_type, report.target_id, reporterId);
  if (author === null || author === reporterId) return false;
  await db
    .prepare(
      `INSERT INTO reports (reporter_id, target_type, target_id, reason, details, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (reporter_id, target_type, target_id) DO NOTHING`,
    )
    .bind(reporterId, report.target_type, report.target_id, report.reason, report.details, now)
    .run();
  return true;
}

export interface QueuedReport {
  target_type: ReportTarget;
  target_id: number;
  reports: number;
  reason: ReportReason;
  details: string;
  reporter: string;
  first_at: number;
  /** What the target says (title, comment or message text, member name), and who wrote it. */
  preview: string | null;
  author_id: number | null;
  author: string | null;
  /** For an upload or a comment: the item to open. */
  content_id: number | null;
}

// One statement for every kind of target: what it says, who wrote it, and where to look.
const TARGET = `
  CASE r.target_type
    WHEN 'content' THEN (SELECT json_object('preview', title, 'author_id', owner_id, 'content_id', id) FROM content WHERE id = r.target_id)
    WHEN 'comment' THEN (SELECT json_object('preview', body, 'author_id', user_id, 'content_id', content_id) FROM comments WHERE id = r.target_id)
    WHEN 'message' THEN (SELECT json_object('preview', body, 'author_id', sender_id) FROM messages WHERE id = r.target_id)
    ELSE (SELECT json_object('preview', nick_name, 'author_id', id) FROM users WHERE id = r.target_id)
  END`;

/** Open reports, one row per target, the oldest first. */
export async function openReports(db: D1Database): Promise<QueuedReport[]> {
  const { results } = await db
    .prepare(
      `SELECT r.target_type, r.target_id, count(*) AS reports, min(r.created_at) AS first_at,
         (SELECT json_object('reason', f.reason, 'details', f.details, 'reporter', u.nick_name) FROM reports f JOIN users u ON u.id = f.reporter_id
          WHERE f.target_type = r.target_type AND f.target_id = r.target_id AND f.resolved_at IS NULL ORDER BY f.created_at, f.id LIMIT 1) AS first,
         ${TARGET} AS target
       FROM reports r WHERE r.resolved_at IS NULL GROUP BY r.target_type, r.target_id ORDER BY first_at LIMIT ?`,
    )
    .bind(QUEUE_SIZE)
    .all<{ target_type: ReportTarget; target_id: number; reports: number; first_at: number; first: string; target: string | null }>();
  const authors = new Map<number, string>();
  const rows = results.map((row) => {
    const first = JSON.parse(row.first) as { reason: ReportReason; details: string; reporter: string };
    const target = row.target ? (JSON.parse(row.target) as { preview: string; author_id: number; content_id?: number }) : null;
    return { row, first, target };
  });
  const ids = [...new Set(rows.flatMap(({ target }) => (target ? [target.author_id] : [])))];
  if (ids.length > 0) {
    const { results: names } = await db
      .prepare(`SELECT id, nick_name FROM users WHERE id IN (${ids.map(() => "?").join(",")})`)
      .bind(...ids)
      .all<{ id: number; nick_name: string }>();
    for (const name of names) authors.set(name.id, name.nick_name);
  }
  return rows.map(({ row, first, target }) => ({
    target_type: row.target_type,
    target_id: row.target_id,
    reports: row.reports,
    first_at: row.first_at,
    ...first,
    preview: target?.preview ?? null,
    author_id: target?.author_id ?? null,
    author: target ? (authors.get(target.author_id) ?? null) : null,
    content_id: target?.content_id ?? null,
  }));
}

/** What moderators have hidden and whom they suspended, newest first, to undo from the queue. */
export async function moderated(db: D1Database) {
  const [hidden, suspended] = await db.batch([
    db.prepare(
      `SELECT 'content' AS target_type, id AS target_id, title AS preview, hidden_at FROM content WHERE hidden_at IS NOT NULL
       UNION ALL SELECT 'comment', id, body, hidden_at FROM comments WHERE hidden_at IS NOT NULL
       UNION ALL SELECT 'message', id, body, hidden_at FROM messages WHERE hidden_at IS NOT NULL
       ORDER BY hidden_at DESC LIMIT ${QUEUE_SIZE}`,
    ),
    db.prepare(`SELECT id, nick_name, suspended_reason FROM users WHERE suspended_reason IS NOT NULL ORDER BY id DESC LIMIT ${QUEUE_SIZE}`),
  ]);
  return {
    hidden: (hidden?.results ?? []) as { target_type: ReportTarget; target_id: number; preview: string; hidden_at: number }[],
    suspended: (suspended?.results ?? []) as { id: number; nick_name: string; suspended_reason: ReportReason }[],
  };
}

const HIDEABLE: Record<Exclude<ReportTarget, "member">, string> = { content: "content", comment: "comments", message: "messages" };

async function authorOf(db: D1Database, type: ReportTarget, id: number): Promise<number | null> {
  if (type === "member") return id;
  const column = { content: "owner_id", comment: "user_id", message: "sender_id" }[type];
  const row = await db.prepare(`SELECT ${column} AS author FROM ${HIDEABLE[type]} WHERE id = ?`).bind(id).first<{ author: number }>();
  return row?.author ?? null;
}

/** Where mail after a decision goes on (the request's waitUntil); tests just let it run. */
const waitUntilNothing = (_promise: Promise<unknown>): void => {};

/** What each decision may apply to; the queue's decisions need an open report on the target. */
const FITS: Record<Decision["action"], { targets: readonly ReportTarget[]; fromQueue: boolean }> = {
  hide: { targets: ["content", "comment", "message"], fromQueue: true },
  warn: { targets: ["content", "comment", "message", "member"], fromQueue: true },
  suspend: { targets: ["content", "comment", "message", "member"], fromQueue: true },
  dismiss: { targets: ["content", "comment", "message", "member"], fromQueue: true },
  restore: { targets: ["content", "comment", "message"], fromQueue: false },
  unsuspend: { targets: ["member"], fromQueue: false },
};

const openReportOn = (db: D1Database, type: ReportTarget, id: number) =>
  db.prepare("SELECT 1 FROM reports WHERE target_type = ? AND target_id = ? AND resolved_at IS NULL LIMIT 1").bind(type, id).first();

/**
 * Applies a moderator's decision. Hide, warn, suspend and dismiss answer an open report (a moderator
 * cannot reach into content nobody reported, private messages least of all) and resolve every open
 * report on the target in the same batch as their effect; restore and unsuspend undo an earlier
 * decision. Hiding an upload makes it private to its owner (every list already keeps private items
 * to their owner) and keeps the owner's own choice for the restore. A suspension ends the member's
 * sessions and sockets at once; members with a role are not suspended from the queue. False when
 * the decision does not fit the target or there is nothing to decide.
 */
export async function decide(
  env: Env,
  moderatorId: number,
  decision: Decision,
  now: number,
  later: (promise: Promise<unknown>) => void = waitUntilNothing,
): Promise<boolean> {
  const db = env.DB;
  const { target_type: type, target_id: id, action, reason } = decision;
  const fit = FITS[action];
  if (!fit.targets.includes(type)) return false;
  if (fit.fromQueue && !(await openReportOn(db, type, id))) return false;
  const author = await authorOf(db, type, id);
  const resolve = db
    .prepare(
      "UPDATE reports SET resolved_at = ?, resolved_by = ?, outcome = ? WHERE target_type = ? AND target_id = ? AND resolved_at IS NULL",
    )
    .bind(now, moderatorId, author === null ? "gone" : action, type, id);
  // A target deleted since it was reported leaves nothing to decide but its reports.
  if (author === null) {
    if (fit.fromQueue) await resolve.run();
    return fit.fromQueue;
  }
  if (action === "suspend" && (await db.prepare("SELECT 1 FROM member_roles WHERE user_id = ?").bind(author).first())) return false;

  const effects: D1PreparedStatement[] = [];
  if (action === "hide" && type === "content") {
    effects.push(
      db
        .prepare("UPDATE content SET hidden_at = ?, hidden_publicize = publicize, publicize = 0 WHERE id = ? AND hidden_at IS NULL")
        .bind(now, id),
    );
  } else if (action === "hide" && type !== "member") {
    effects.push(db.prepare(`UPDATE ${HIDEABLE[type]} SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL`).bind(now, id));
  } else if (action === "restore" && type === "content") {
    effects.push(
      db
        .prepare(
          "UPDATE content SET publicize = coalesce(hidden_publicize, 1), hidden_at = NULL, hidden_publicize = NULL WHERE id = ? AND hidden_at IS NOT NULL",
        )
        .bind(id),
    );
  } else if (action === "restore" && type !== "member") {
    effects.push(db.prepare(`UPDATE ${HIDEABLE[type]} SET hidden_at = NULL WHERE id = ?`).bind(id));
  } else if (action === "suspend") {
    effects.push(db.prepare("UPDATE users SET suspended_reason = ? WHERE id = ?").bind(reason, author), revokeAllSessions(db, author));
  } else if (action === "unsuspend") {
    effects.push(db.prepare("UPDATE users SET suspended_reason = NULL WHERE id = ?").bind(author));
  }
  await db.batch(fit.fromQueue ? [...effects, resolve] : effects);
  if (action === "suspend") await closeSessionSockets(env, author, null);
  if (action === "warn" || action === "suspend") later(tellAuthor(db, author, action, reason));
  return true;
}

async function tellAuthor(db: D1Database, memberId: number, action: "warn" | "suspend", reason: ReportReason) {
  const member = await db
    .prepare("SELECT email, language FROM users WHERE id = ?")
    .bind(memberId)
    .first<{ email: string; language: string }>();
  if (!member) return;
  const t = translator(member.language);
  const why = t(`safety.reasons.${reason}`);
  const mail =
    action === "warn"
      ? { subject: t("mail.warningSubject"), text: t("mail.warningBody", { reason: why }) }
      : { subject: t("mail.suspendedSubject"), text: t("mail.suspendedBody", { reason: why }) };
  await sendMail({ to: member.email, ...mail }).catch((error) => console.error("moderation mail failed", error));
}
