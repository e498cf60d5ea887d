import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromEdge } from "~/.server/web/edge-cache";
import { newItem, newMember } from "./helpers";

// Open records at the edge (decision 0049), in workerd's own Cache API: kept per language and per
// change of the item, never for a member or a closed record, and with each reader's own nonce.

const ORIGIN = "http://127.0.0.1:8787";

/** A renderer that counts its renders and answers a page naming the render and its nonce. */
function renderer(nonce = "first-nonce") {
  let renders = 0;
  return {
    get renders() {
      return renders;
    },
    render: async () => {
      renders++;
      return new Response(`<html><head><style nonce="${nonce}"></style></head><body>render ${renders}</body></html>`, {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", "Server-Timing": "db;dur=3" },
      });
    },
  };
}

async function openItem() {
  const id = await newItem(await newMember("Cached"));
  await env.DB.prepare("UPDATE content SET open_record = 1 WHERE id = ?").bind(id).run();
  return id;
}

const get = (id: number, headers: Record<string, string> = {}, path = "") => new Request(`${ORIGIN}/records/${id}/${path}`, { headers });

describe("an open record at the edge", () => {
  it("is rendered once per change and language, and served with the reader's own nonce and the page's own headers", async () => {
    const id = await openItem();
    const page = renderer();
    const first = await fromEdge(get(id), "first-nonce", page.render);
    expect(await first.text()).toContain("render 1");
    const again = await fromEdge(get(id), "second-nonce", page.render);
    expect(await again.text()).toBe('<html><head><style nonce="second-nonce"></style></head><body>render 1</body></html>');
    expect([again.headers.get("Cache-Control"), again.headers.get("Server-Timing"), again.headers.has("X-Page-Cache-Control")]).toEqual([
      "no-cache",
      null,
      false,
    ]);
    // Another language is another page; an edit makes every kept one stale at once.
    await fromEdge(get(id, { "Accept-Language": "ja" }), "n", page.render);
    expect(page.renders).toBe(2);
    await env.DB.prepare("UPDATE content SET updated_at = updated_at + 1 WHERE id = ?").bind(id).run();
    expect(await (await fromEdge(get(id), "n", page.render)).text()).toContain("render 3");
    // A language version's address is a page of its own; another query is never kept.
    await fromEdge(new Request(`${ORIGIN}/records/${id}/?hl=zh`), "n", page.render);
    await fromEdge(new Request(`${ORIGIN}/records/${id}/?hl=zh`), "n", page.render);
    for (const query of ["x=1", "hl=null", "hl=ja&x=1"]) {
      await fromEdge(new Request(`${ORIGIN}/records/${id}/?${query}`), "n", page.render);
      await fromEdge(new Request(`${ORIGIN}/records/${id}/?${query}`), "n", page.render);
    }
    expect(page.renders).toBe(10);
    // Its metadata exports are kept the same way; other files of its directory are not.
    await fromEdge(get(id, {}, "citation.bib"), "n", page.render);
    await fromEdge(get(id, {}, "citation.bib"), "n", page.render);
    await fromEdge(get(id, {}, `${id}.pdf`), "n", page.render);
    await fromEdge(get(id, {}, `${id}.pdf`), "n", page.render);
    expect(page.renders).toBe(13);
  });

  it("is never served from the cache once closed, nor to a member, nor kept when the answer is not a plain page", async () => {
    const id = await openItem();
    const page = renderer();
    await fromEdge(get(id), "n", page.render);
    await fromEdge(get(id, { Cookie: "token=Bearer%20x" }), "n", page.render);
    await fromEdge(get(id, { Cookie: "lang=en; flash=%7B%7D" }), "n", page.render);
    expect(page.renders).toBe(3);
    await env.DB.prepare("UPDATE content SET hidden_at = 1, hidden_publicize = 1, publicize = 0 WHERE id = ?").bind(id).run();
    await fromEdge(get(id), "n", page.render);
    expect(page.renders).toBe(4);
    const other = await openItem();
    let calls = 0;
    const redirect = async () => {
      calls++;
      return new Response(null, { status: 302, headers: { Location: "/login" } });
    };
    await fromEdge(get(other), "n", redirect);
    await fromEdge(get(other), "n", redirect);
    const cookie = async () => {
      calls++;
      return new Response("page", { headers: { "Set-Cookie": "lang=ja", "Content-Type": "text/html" } });
    };
    await fromEdge(get(other), "n", cookie);
    await fromEdge(get(other), "n", cookie);
    expect(calls).toBe(4);
  });
});
