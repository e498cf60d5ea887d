import { revokeAllSessions } from "~/.server/accounts/sessions";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { findContent } from "~/.server/content/content";
import { translator } from "~/.server/i18n/translate";
import { sendMail } from "~/.server/mail/mail";
import { conversationFor } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { conversationOfMessage } from "~/.server/messaging/room-store";
import { closeSessionSockets } from "~/.server/messaging/session-sockets";
import { noticeMail } from "~/.server/notifications/notice-mail";
import { mailsAtOnce, notify } from "~/.server/notifications/notifications";
import { Refused } from "~/.server/refused";
import { NOT_AVAILABLE, SEES_COMMENT } from "~/.server/social/block-rules";
import type { ReportReason, ReportTarget } from "~/lib/choices";
import type { Decision } from "~/lib/schemas/report";

/**
 * Reports and the moderators' decisions. A member reports only what they can see; one report per
 * member and target (a repeat changes nothing). A decision resolves every open report on its target
 * in the same batch as its effect, so two moderators deciding at once cannot half-apply either.
 * Messages live in their conversation's Durable Object: a message id names its conversation.
 */

/**
 * Reports on messages still in D1 (made before each conversation kept its own, decision 0028) name
 * their old ids: have their rooms move them now, which re-points the reports, so the queue shows and
 * decides them like the others.
 */
async function moveReportedMessages() {
  const { results } = await env.DB.prepare(
    `SELECT DISTINCT m.conversation_id AS id FROM reports r JOIN messages m ON m.id = r.target_id
     WHERE r.target_type = 'message' AND r.resolved_at IS NULL LIMIT ${QUEUE_SIZE}`,
  ).all<{ id: number }>();
  await Promise.all(results.map(({ id }) => conversationRoom(id).settle(id)));
}

/** A message, hidden or not, from its conversation's object; null when there is no such message. */
async function findMessage(id: number) {
  const conversationId = conversationOfMessage(id);
  if (!(await env.DB.prepare("SELECT 1 FROM conversations WHERE id = ?").bind(conversationId).first())) return null;
  return conversationRoom(conversationId).message(conversationId, id);
}

export const QUEUE_SIZE = 50;

/** Who wrote the target (the member a warning or suspension is for), if the reporter may see it. */
async function visibleAuthor(type: ReportTarget, id: number, viewerId: number): Promise<number | null> {
  const db = env.DB;
  if (type === "content") return (await findContent(id, viewerId))?.owner_id ?? null;
  if (type === "member") return (await db.prepare("SELECT id FROM users WHERE id = ?").bind(id).first<{ id: number }>())?.id ?? null;
  if (type === "comment") {
    // Private feedback only by those who see it (decision 0051).
    const row = await db
      .prepare(`SELECT content_id, user_id FROM comments c WHERE id = ?1 AND hidden_at IS NULL AND ${SEES_COMMENT("c", "?2")}`)
      .bind(id, viewerId)
      .first<{
        content_id: number;
        user_id: number;
      }>();
    return row && (await findContent(row.content_id, viewerId)) ? row.user_id : null;
  }
  if (!(await conversationFor(conversationOfMessage(id), viewerId))) return null;
  const message = await findMessage(id);
  return message && message.hidden_at === null ? message.sender_id : null;
}

/** Files a report (a repeat changes nothing); refused when the target does not exist for the reporter, or is their own (403, as for anything not available). */
export async function fileReport(
  reporterId: number,
  report: { target_type: ReportTarget; target_id: number; reason: ReportReason; details: string },
  now: number,
): Promise<void> {
  const author = await visibleAuthor(report.target_type, report.target_id, reporterId);
  if (author === null || author === reporterId) throw new Refused(NOT_AVAILABLE, { status: 403 });
  await env.DB.prepare(
    `INSERT INTO reports (reporter_id, target_type, target_id, reason, details, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (reporter_id, target_type, target_id) DO NOTHING`,
  )
    .bind(reporterId, report.target_type, report.target_id, report.reason, report.details, now)
    .run();
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

// One statement for every kind of target but messages (read from their rooms): what it says, who wrote it, and where to look.
const TARGET = `
  CASE r.target_type
    WHEN 'content' THEN (SELECT json_object('preview', title, 'author_id', owner_id, 'content_id', id) FROM content WHERE id = r.target_id)
    WHEN 'comment' THEN (SELECT json_object('preview', body, 'author_id', user_id, 'content_id', content_id) FROM comments WHERE id = r.target_id)
    WHEN 'message' THEN NULL
    ELSE (SELECT json_object('preview', nick_name, 'author_id', id) FROM users WHERE id = r.target_id)
  END`;

/** Open reports, one row per target, the oldest first. */
export async function openReports(): Promise<QueuedReport[]> {
  const db = env.DB;
  await moveReportedMessages();
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
  const rows = await Promise.all(
    results.map(async (row) => {
      const first = JSON.parse(row.first) as { reason: ReportReason; details: string; reporter: string };
      const message = row.target_type === "message" ? await findMessage(row.target_id) : null;
      const target = message
        ? { preview: message.body, author_id: message.sender_id }
        : row.target
          ? (JSON.parse(row.target) as { preview: string; author_id: number; content_id?: number })
          : null;
      return { row, first, target };
    }),
  );
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

/**
 * What moderators have hidden and whom they suspended, newest first, to undo from the queue. Hidden
 * messages are found through the reports a hide resolved, and read from their rooms.
 */
export async function moderated() {
  const db = env.DB;
  const [hidden, suspended, hiddenMessages] = await db.batch([
    db.prepare(
      `SELECT 'content' AS target_type, id AS target_id, title AS preview, hidden_at FROM content WHERE hidden_at IS NOT NULL
       UNION ALL SELECT 'comment', id, body, hidden_at FROM comments WHERE hidden_at IS NOT NULL
       ORDER BY hidden_at DESC LIMIT ${QUEUE_SIZE}`,
    ),
    db.prepare(`SELECT id, nick_name, suspended_reason FROM users WHERE suspended_reason IS NOT NULL ORDER BY id DESC LIMIT ${QUEUE_SIZE}`),
    db.prepare(
      `SELECT target_id FROM reports WHERE target_type = 'message' AND outcome = 'hide'
       GROUP BY target_id ORDER BY max(resolved_at) DESC LIMIT ${QUEUE_SIZE}`,
    ),
  ]);
  type Hidden = { target_type: ReportTarget; target_id: number; preview: string; hidden_at: number };
  const messages = await Promise.all(
    ((hiddenMessages?.results ?? []) as { target_id: number }[]).map(async ({ target_id }): Promise<Hidden[]> => {
      const message = await findMessage(target_id);
      return message?.hidden_at ? [{ target_type: "message", target_id, preview: message.body, hidden_at: message.hidden_at }] : [];
    }),
  );
  return {
    hidden: [...((hidden?.results ?? []) as Hidden[]), ...messages.flat()].sort((a, b) => b.hidden_at - a.hidden_at).slice(0, QUEUE_SIZE),
    suspended: (suspended?.results ?? []) as { id: number; nick_name: string; suspended_reason: ReportReason }[],
  };
}

async function authorOf(type: ReportTarget, id: number): Promise<number | null> {
  if (type === "member") return id;
  if (type === "message") return (await findMessage(id))?.sender_id ?? null;
  const [table, column] = type === "content" ? ["content", "owner_id"] : ["comments", "user_id"];
  const row = await env.DB.prepare(`SELECT ${column} AS author FROM ${table} WHERE id = ?`).bind(id).first<{ author: number }>();
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

const openReportOn = (type: ReportTarget, id: number) =>
  env.DB.prepare("SELECT 1 FROM reports WHERE target_type = ? AND target_id = ? AND resolved_at IS NULL LIMIT 1").bind(type, id).first();

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
  moderatorId: number,
  decision: Decision,
  now: number,
  later: (promise: Promise<unknown>) => void = waitUntilNothing,
): Promise<boolean> {
  const db = env.DB;
  const { target_type: type, target_id: id, action, reason } = decision;
  const fit = FITS[action];
  if (!fit.targets.includes(type)) return false;
  if (fit.fromQueue && !(await openReportOn(type, id))) return false;
  const author = await authorOf(type, id);
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
  } else if (action === "hide" && type === "comment") {
    effects.push(db.prepare("UPDATE comments SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL").bind(now, id));
  } else if (action === "restore" && type === "content") {
    effects.push(
      db
        .prepare(
          "UPDATE content SET publicize = coalesce(hidden_publicize, 1), hidden_at = NULL, hidden_publicize = NULL WHERE id = ? AND hidden_at IS NOT NULL",
        )
        .bind(id),
    );
  } else if (action === "restore" && type === "comment") {
    effects.push(db.prepare("UPDATE comments SET hidden_at = NULL WHERE id = ?").bind(id));
  } else if (action === "suspend") {
    effects.push(db.prepare("UPDATE users SET suspended_reason = ? WHERE id = ?").bind(reason, author), revokeAllSessions(author));
  } else if (action === "unsuspend") {
    effects.push(db.prepare("UPDATE users SET suspended_reason = NULL WHERE id = ?").bind(author));
  }
  const statements = fit.fromQueue ? [...effects, resolve] : effects;
  // Restoring a message changes nothing in D1 (D1 refuses an empty batch).
  const results = statements.length > 0 ? await db.batch(statements) : [];
  if (type === "message" && (action === "hide" || action === "restore")) {
    // The message is in its room, outside this batch: only the decision that resolved the reports
    // applies it, and if it cannot, the reports open again for the next try.
    if (fit.fromQueue && !results.at(-1)?.meta.changes) return true;
    const conversationId = conversationOfMessage(id);
    await conversationRoom(conversationId)
      .setHidden(conversationId, id, action === "hide" ? now : null)
      .catch(async (error) => {
        if (fit.fromQueue)
          await db
            .prepare(
              "UPDATE reports SET resolved_at = NULL, resolved_by = NULL, outcome = NULL WHERE target_type = 'message' AND target_id = ? AND resolved_at = ?",
            )
            .bind(id, now)
            .run();
        throw error;
      });
  }
  if (action === "suspend") await closeSessionSockets(author, null);
  if (action === "warn" || action === "suspend") later(tellAuthor(author, action, reason));
  return true;
}

async function tellAuthor(memberId: number, action: "warn" | "suspend", reason: ReportReason) {
  const member = await env.DB.prepare("SELECT email, language FROM users WHERE id = ?")
    .bind(memberId)
    .first<{ email: string; language: string }>();
  if (!member) return;
  const t = translator(member.language);
  const why = t(`safety.reasons.${reason}`);
  if (action === "suspend") {
    // A suspension is about the account itself: always mailed, whatever the member chose.
    const mail = { subject: t("mail.suspendedSubject"), text: t("mail.suspendedBody", { reason: why, address: config().appealAddress }) };
    await sendMail({ to: member.email, ...mail }).catch((error) => console.error("moderation mail failed", error));
    return;
  }
  // A warning is a moderation notice: in the app, and mailed at once unless the member chose otherwise.
  const now = Date.now();
  await notify(
    [
      {
        userId: memberId,
        kind: "moderation",
        event: "warning",
        key: `moderation:warning:${now}:${reason}`,
        subjectId: null,
        actorId: null,
      },
    ],
    now,
  );
  if (!(await mailsAtOnce(memberId, "moderation"))) return;
  const notice = { member: memberId, to: member.email, language: member.language, kind: "moderation", target: null } as const;
  await noticeMail({ ...notice, subject: t("mail.warningSubject"), paragraphs: [t("mail.warningBody", { reason: why })] })
    .then(sendMail)
    .catch((error) => console.error("moderation mail failed", error));
}
