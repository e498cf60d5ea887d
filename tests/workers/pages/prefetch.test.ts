import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { unreadTotal } from "~/.server/messaging/conversations";
import * as message from "~/routes/message";
import * as retrieval from "~/routes/retrieval";
import * as tags from "~/routes/shell.tags";
import { sendMessage } from "../helpers";
import { callRoute } from "../route";
import { signedIn } from "./page-helpers";

// A page the browser prefetches while the pointer rests on a link (decision 0046) is rendered as it
// will be shown, but records nothing a visit records: the member may never open it. Opened, the
// shell module asks for it once more, as the plain request below.

const PREFETCH = { "Sec-Purpose": "prefetch", "Sec-Fetch-Site": "same-origin" };
const VISIT = { "Sec-Fetch-Site": "same-origin" };

describe("a prefetched page", () => {
  it("that needs a session it no longer has is refused, so the click itself gets the login and its notice", async () => {
    const prefetched = await callRoute(retrieval, { path: "/retrieval", token: "x".repeat(43), headers: PREFETCH });
    expect(prefetched.status).toBe(401);
    // The dead session cookie stays for the click, which clears it and says why.
    expect([prefetched.cookies.token, prefetched.cookies.point, prefetched.cookies.flash]).toEqual([undefined, undefined, undefined]);
    const opened = await callRoute(retrieval, { path: "/retrieval", token: "x".repeat(43), headers: VISIT });
    expect([opened.status, opened.cookies.point, opened.cookies.token]).toEqual([302, "401", ""]);
  });

  it("whose session a background request found ended first still leaves the click its notice", async () => {
    // The shell's own request (here the tags bar's) is the first to meet the dead cookie, and clears it...
    const background = await callRoute(tags, {
      path: "/shell/tags",
      token: "x".repeat(43),
      headers: VISIT,
      form: { closeAll: "1", current: "/home" },
      inLayout: false,
    });
    expect([background.cookies.token, background.cookies.point]).toEqual(["", "401"]);
    // ...so the click, without it, is told the session expired by the point cookie it left.
    const opened = await callRoute(retrieval, { path: "/retrieval", headers: VISIT, cookies: { point: "401" } });
    expect([opened.status, opened.location]).toEqual([302, "/login?redirect=%2Fretrieval"]);
  });

  it("keeps the search out of the history and the tab out of the tags bar, until it is opened", async () => {
    const me = await signedIn("Hoverer");
    const word = `hover${crypto.randomUUID().slice(0, 8)}`;
    const path = `/retrieval?q=${word}`;
    const rows = () => env.DB.prepare("SELECT count(*) AS n FROM search_history WHERE user_id = ?").bind(me.id).first<number>("n");

    const prefetched = await callRoute(retrieval, { path, token: me.token, headers: PREFETCH });
    expect(prefetched.status).toBe(200);
    expect(prefetched.cookies.tagsView).toBeUndefined();
    expect(await rows()).toBe(0);

    const opened = await callRoute(retrieval, { path, token: me.token, headers: VISIT });
    expect(opened.cookies.tagsView).toContain("/retrieval");
    expect(await rows()).toBe(1);
  });

  it("leaves a conversation unread, until it is opened", async () => {
    const alice = await signedIn("Alice");
    const bob = await signedIn("Bob");
    const started = await callRoute(message, { path: "/message", token: alice.token, form: { intent: "start", member: String(bob.id) } });
    const id = Number(/conversation=(\d+)$/.exec(started.location ?? "")?.[1]);
    await sendMessage(id, alice.id, "hello");
    const path = `/message?conversation=${id}`;
    expect((await callRoute(message, { path, token: bob.token, headers: PREFETCH })).status).toBe(200);
    expect(await unreadTotal(bob.id)).toBe(1);
    await callRoute(message, { path, token: bob.token, headers: VISIT });
    expect(await unreadTotal(bob.id)).toBe(0);
  });

  it("is dropped by the browser after any change the member makes, and never by a page load", async () => {
    const me = await signedIn("Changer");
    const change = await callRoute(tags, { path: "/shell/tags", token: me.token, form: { closeAll: "1", current: "/home" } });
    expect(change.status).toBe(303);
    expect(change.headers.get("Clear-Site-Data")).toBe('"prefetchCache"');
    const load = await callRoute(retrieval, { path: "/retrieval", token: me.token, headers: VISIT });
    expect(load.headers.get("Clear-Site-Data")).toBeNull();
  });
});
