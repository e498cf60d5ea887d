import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { ALL_RIGHTS_RESERVED } from "~/lib/licenses";
import { type ContentItem, contentWhere } from "./content";

// Open records (decision 0049): an item's record that anyone may read, where the operator allows
// open records (OPEN_RECORDS) and its owner opened it. The spec's members-only site is the default.

/**
 * The record anyone may read: the item, when the site allows open records, its owner opened it and
 * it is public and not hidden; "gone" for one that was open when it was deleted; else null (the
 * visitor is sent to sign in, which says nothing of whether the item exists).
 */
export async function openRecord(id: number): Promise<ContentItem | "gone" | null> {
  if (!config().openRecords || !Number.isInteger(id) || id <= 0) return null;
  const [item] = await contentWhere("c.id = ?", id);
  if (item) return item.open_record === 1 && item.publicize === 1 && item.hidden_at === null ? item : null;
  // Only a deleted item's record is gone; one hidden or made private may open again.
  const closed = await env.DB.prepare("SELECT 1 FROM closed_records WHERE content_id = ?").bind(id).first();
  return closed ? "gone" : null;
}

/** Whether an item's licence lets anyone read its file: any licence named, but all rights reserved. */
export const openlyLicensed = (license: string | null) => license !== null && license !== ALL_RIGHTS_RESERVED;

/** The file's name in its record's directory, ending as Scholar asks (`.pdf`) and players expect (`.mp4`). */
export const recordFileName = (item: Pick<ContentItem, "id" | "kind">) => `${item.id}.${item.kind === "document" ? "pdf" : "mp4"}`;

/** A caption file's name in its record's directory. */
export const captionFileName = (lang: string) => `captions-${lang}.vtt`;

/** Records a sitemap lists: two URLs each (the page and its file), so a sitemap holds at most 10,000 URLs. */
export const SITEMAP_RECORDS = 5_000;

/** The condition on a content row (columns prefixed `at`) for an open record. */
export const OPEN_RECORD = (at: string) => `${at}open_record = 1 AND ${at}publicize = 1 AND ${at}hidden_at IS NULL`;

/** How many sitemaps the open records fill (none while the site keeps records closed). */
export async function sitemapCount(): Promise<number> {
  if (!config().openRecords) return 0;
  const open = await env.DB.prepare(`SELECT count(*) AS n FROM content WHERE ${OPEN_RECORD("")}`).first<number>("n");
  return Math.ceil((open ?? 0) / SITEMAP_RECORDS);
}

/** The open records of sitemap `n` (from 1), oldest first: what a sitemap says of each. */
export async function sitemapRecords(n: number) {
  if (!config().openRecords || !Number.isInteger(n) || n < 1) return [];
  const { results } = await env.DB.prepare(
    `SELECT id, kind, license, updated_at FROM content WHERE ${OPEN_RECORD("")} ORDER BY id LIMIT ?1 OFFSET ?2`,
  )
    .bind(SITEMAP_RECORDS, (n - 1) * SITEMAP_RECORDS)
    .all<Pick<ContentItem, "id" | "kind" | "license" | "updated_at">>();
  return results;
}
