import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SITEMAP_RECORDS } from "~/.server/content/open-records";
import * as sitemapIndex from "~/routes/sitemaps/index";
import * as sitemap from "~/routes/sitemaps/records";
import { newMember } from "./helpers";
import { callRoute } from "./route";

// The sitemaps' bound (decision 0049), hit with one record past a sitemap's worth: a sitemap holds at
// most 10,000 URLs and 5 MB (the protocol's limits), and the next one takes the rest. Its own
// storage: thousands of open items would crowd the other files' feeds.

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
const child = (file: string) => callRoute(sitemap, { path: `/sitemaps/${file}`, params: { file }, inLayout: false });

describe("sitemaps at their bound", () => {
  it("split one record past a sitemap's worth into a second, each within 10,000 URLs and 5 MB", async () => {
    const owner = await newMember("Prolific");
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
         thumbnail_key, thumbnail_type, created_at, updated_at, open_record, license)
       SELECT ?1, 'document', 1, 't', 's', 'c', 'k', 1, 'bound-' || i, 1, 'application/pdf', 't', 'image/png', 1, 1, 1, 'CC-BY-4.0' FROM n`,
    )
      .bind(owner, SITEMAP_RECORDS + 1)
      .run();
    const index = await callRoute(sitemapIndex, { path: "/sitemap.xml", inLayout: false });
    expect(locs(index.body)).toEqual(["http://127.0.0.1:8787/sitemaps/records-1.xml", "http://127.0.0.1:8787/sitemaps/records-2.xml"]);
    const [first, second] = [await child("records-1.xml"), await child("records-2.xml")];
    expect(locs(first.body)).toHaveLength(10_000);
    expect(new TextEncoder().encode(first.body).byteLength).toBeLessThan(5 * 1024 * 1024);
    expect(locs(second.body)).toHaveLength(2); // the last record's page and file
    expect((await child("records-3.xml")).status).toBe(404);
  });
});
