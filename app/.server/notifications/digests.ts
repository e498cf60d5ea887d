import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { translator } from "~/.server/i18n/translate";
import type { DigestJob } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { mailHtml, mailText } from "~/.server/mail/html";
import { sendMail } from "~/.server/mail/mail";
import { DIGEST_BATCH_MEMBERS, DIGEST_HOUR, DIGEST_MAX_ITEMS, DIGEST_MEMBERS_PER_RUN } from "~/lib/limits";
import { defaultChannel, NOTIFICATION_KINDS, type NotificationKind, notificationText } from "~/lib/notifications";
import { utcToZoned } from "~/lib/time-zone";
import { noticeMail } from "./notice-mail";
import { channelsOf, listNotificationsSince, mailsAtOnce, type NotificationRow, notificationTarget, SUBJECT_TITLE } from "./notifications";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe";

// Digests (docs/decisions/0040-calm-notifications.md): the cron queues the members whose digest is
// due (daily, or weekly from Monday, at DIGEST_HOUR on their clocks); a job builds one mail per
// member with what arrived since their last digest of that kind, grouped by kind. Each digest is
// claimed in one statement, so two cron runs or a redelivered job build it once, and a retry after
// a failed send sends the same mail under the same idempotency key, never a second one.

export type Frequency = "daily" | "weekly";
const DAY = 86_400_000;
const WEEKLY_BY_DEFAULT = NOTIFICATION_KINDS.filter((kind) => defaultChannel(kind) === "weekly");

/** The digest periods due now in this zone: today's daily one, this week's weekly one (from Monday). */
export function duePeriods(zone: string, now: number): string[] {
  const local = utcToZoned(now, zone);
  if (Number(local.slice(11, 13)) < DIGEST_HOUR) return [];
  const day = local.slice(0, 10);
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const monday = new Date(Date.parse(`${day}T00:00:00Z`) - weekday * DAY).toISOString().slice(0, 10);
  return [`daily:${day}`, `weekly:${monday}`];
}

/** Queues jobs for the members whose digest is due and not yet claimed (at most DIGEST_MEMBERS_PER_RUN a run). */
export async function queueDueDigests(now: number): Promise<number> {
  const db = env.DB;
  const { results: zones } = await db.prepare("SELECT DISTINCT time_zone FROM users WHERE deleted_at IS NULL").all<{ time_zone: string }>();
  const byPeriod = new Map<string, string[]>();
  for (const { time_zone } of zones) {
    let periods: string[] = [];
    try {
      periods = duePeriods(time_zone, now);
    } catch {
      periods = duePeriods("UTC", now);
    }
    for (const period of periods) byPeriod.set(period, [...(byPeriod.get(period) ?? []), time_zone]);
  }
  const weeklyKinds = WEEKLY_BY_DEFAULT.map((kind) => `'${kind}'`).join(", ");
  const jobs: DigestJob[] = [];
  let left = DIGEST_MEMBERS_PER_RUN;
  for (const [period, inZones] of byPeriod) {
    if (left <= 0) break;
    const frequency = period.split(":")[0] as Frequency;
    // Members with at least one kind on this digest: chosen, or (weekly) a kind whose default they kept.
    const wants =
      frequency === "daily"
        ? "EXISTS (SELECT 1 FROM notification_channels c WHERE c.user_id = u.id AND c.channel = 'daily')"
        : `(EXISTS (SELECT 1 FROM notification_channels c WHERE c.user_id = u.id AND c.channel = 'weekly')
            OR (SELECT count(*) FROM notification_channels c WHERE c.user_id = u.id AND c.kind IN (${weeklyKinds})) < ${WEEKLY_BY_DEFAULT.length})`;
    const { results } = await db
      .prepare(
        `SELECT u.id FROM users u WHERE u.deleted_at IS NULL AND u.suspended_reason IS NULL AND u.time_zone IN (SELECT value FROM json_each(?1))
           AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.user_id = u.id AND d.period = ?2) AND ${wants} ORDER BY u.id LIMIT ?3`,
      )
      .bind(JSON.stringify(inZones), period, left)
      .all<{ id: number }>();
    left -= results.length;
    for (let i = 0; i < results.length; i += DIGEST_BATCH_MEMBERS)
      jobs.push({ type: "digest", period, members: results.slice(i, i + DIGEST_BATCH_MEMBERS).map((row) => row.id), at: now });
  }
  await enqueue(jobs);
  return jobs.reduce((sum, job) => sum + job.members.length, 0);
}

/** Builds and sends one job's digests; one that fails is retried with the whole job (the sent ones are skipped). */
export async function sendDigests(job: DigestJob) {
  let failed: unknown = null;
  let sent = 0;
  for (const member of job.members) {
    try {
      if ((await sendDigest(member, job.period, job.at)) === "sent") sent++;
    } catch (error) {
      failed ??= error;
    }
  }
  if (failed) throw failed;
  return { sent };
}

/** One member's digest for the period: claimed once, sent once, nothing when nothing arrived. */
export async function sendDigest(member: number, period: string, now: number): Promise<"sent" | "empty" | "done"> {
  const db = env.DB;
  const frequency = period.split(":")[0] as Frequency;
  const length = frequency === "daily" ? DAY : 7 * DAY;
  // The claim: the first run inserts it (since the last digest of this kind, or one period back); the rest find it.
  const [, claimed] = await db.batch([
    db
      .prepare(
        `INSERT INTO digests (user_id, period, since, claimed_at)
         SELECT ?1, ?2, coalesce((SELECT max(claimed_at) FROM digests WHERE user_id = ?1 AND period LIKE ?3), ?4 - ?5), ?4
         ON CONFLICT DO NOTHING`,
      )
      .bind(member, period, `${frequency}:%`, now, length),
    db.prepare("SELECT since, claimed_at, sent_at FROM digests WHERE user_id = ? AND period = ?").bind(member, period),
  ]);
  const claim = claimed?.results[0] as { since: number; claimed_at: number; sent_at: number | null } | undefined;
  if (!claim || claim.sent_at !== null) return "done";
  const channels = await channelsOf(member);
  const kinds = NOTIFICATION_KINDS.filter((kind) => channels[kind] === frequency);
  const rows = kinds.length ? await listNotificationsSince(member, kinds, claim.since, claim.claimed_at, DIGEST_MAX_ITEMS) : [];
  const user = await db
    .prepare("SELECT email, language FROM users WHERE id = ? AND deleted_at IS NULL")
    .bind(member)
    .first<{ email: string; language: string }>();
  if (rows.length > 0 && user) {
    const t = translator(user.language);
    const origin = config().siteUrl;
    const grouped = kinds.map((kind) => ({ kind, rows: rows.filter((row) => row.kind === kind) })).filter((group) => group.rows.length > 0);
    const content = {
      language: user.language,
      title: t(`digest.${frequency}Subject`),
      paragraphs: [t(`digest.${frequency}Intro`, { count: rows.length })],
      sections: grouped.map((group) => ({
        heading: t(`notifications.kinds.${group.kind as NotificationKind}`),
        links: group.rows.map((row) => ({ text: notificationText(t, row), href: `${origin}${notificationTarget(row)}` })),
      })),
      footer: [
        { text: t("digest.preferences"), href: `${origin}/personal/Setting?section=notifications#notifications` },
        { text: t("digest.unsubscribe"), href: await unsubscribeUrl(origin, member, frequency) },
      ],
    };
    await sendMail({
      to: user.email,
      subject: content.title,
      text: mailText(content),
      html: mailHtml(content),
      headers: await unsubscribeHeaders(origin, member, frequency),
      idempotencyKey: `digest:${member}:${period}`,
    });
  }
  await db
    .prepare("UPDATE digests SET sent_at = ?, notifications = ? WHERE user_id = ? AND period = ?")
    .bind(now, rows.length, member, period)
    .run();
  return rows.length > 0 && user ? "sent" : "empty";
}

/** One notification mailed at once (its member chose "mail" for its kind), unless they changed their mind since. */
export async function sendNotificationMail(id: number) {
  const row = await env.DB.prepare(
    `SELECT n.id, n.user_id, n.kind, n.event, n.subject_id, n.actor_id, a.nick_name AS actor_name, n.created_at, n.read_at,
         ${SUBJECT_TITLE} AS subject_title, u.email, u.language
       FROM notifications n JOIN users u ON u.id = n.user_id AND u.deleted_at IS NULL LEFT JOIN users a ON a.id = n.actor_id WHERE n.id = ?`,
  )
    .bind(id)
    .first<NotificationRow & { user_id: number; email: string; language: string }>();
  if (!row || !(await mailsAtOnce(row.user_id, row.kind))) return;
  const text = notificationText(translator(row.language), row);
  const mail = { member: row.user_id, to: row.email, language: row.language, kind: row.kind, subject: text, paragraphs: [text] };
  await sendMail(await noticeMail({ ...mail, target: notificationTarget(row), idempotencyKey: `notification:${row.id}` }));
}
