import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { unreadTotal } from "~/.server/messaging/conversations";
import { block } from "~/.server/social/blocks";
import * as message from "~/routes/message";
import { history, newMember, sendMessage } from "../helpers";
import { callRoute } from "../route";
import { flashOf, type Reply, signedIn } from "./page-helpers";

// /message without JavaScript: starting a conversation, sending with the composer's form, opening
// one (which marks it read). The live exchange (sockets) stays in tests/e2e.

/** Alice starts a conversation with Bob from his page, as the Message button does. */
async function started() {
  const alice = await signedIn("Alice");
  const bob = await signedIn("Bob");
  const answer = await callRoute(message, { path: "/message", token: alice.token, form: { intent: "start", member: String(bob.id) } });
  const id = Number(/conversation=(\d+)$/.exec(answer.location ?? "")?.[1]);
  return { alice, bob, id, answer };
}

const bodies = async (id: number) => (await history(id)).messages.map((m) => m.body);

describe("/message", () => {
  it("sends a visitor to the login with the full path", async () => {
    const answer = await callRoute(message, { path: "/message?conversation=3" });
    expect([answer.status, answer.location]).toEqual([302, "/login?redirect=%2Fmessage%3Fconversation%3D3"]);
  });

  it("starts a conversation once, however often the button is pressed, and lists it for both", async () => {
    const { alice, bob, id, answer } = await started();
    expect([answer.status, answer.location]).toEqual([303, `/message?conversation=${id}`]);
    const again = await callRoute(message, { path: "/message", token: alice.token, form: { intent: "start", member: String(bob.id) } });
    expect(again.location).toBe(`/message?conversation=${id}`);
    const theirs = await callRoute(message, { path: "/message", token: bob.token, form: { intent: "start", member: String(alice.id) } });
    expect(theirs.location).toBe(`/message?conversation=${id}`);
    const list = await callRoute<{ conversations: { id: number }[]; open: null }>(message, { path: "/message", token: bob.token });
    expect([list.status, list.data.open]).toEqual([200, null]);
    expect(list.data.conversations.map((c) => c.id)).toEqual([id]);
  });

  it("answers 404 for starting with a member that does not exist, and refuses oneself back on one's Space", async () => {
    const me = await signedIn();
    const start = (member: string) => callRoute(message, { path: "/message", token: me.token, form: { intent: "start", member } });
    for (const member of ["999999", "x"]) expect((await start(member)).status, member).toBe(404);
    const oneself = await start(String(me.id));
    expect([oneself.status, oneself.location]).toEqual([303, `/personal?member=${me.id}`]);
    expect(flashOf(oneself)).toMatchObject({ kind: "error", key: "notify.requestFailed" });
  });

  it("refuses to start a conversation across a block without saying why, back on the member's page", async () => {
    const me = await signedIn("Pest");
    const blocker = await newMember("Blocker");
    await block(blocker, me.id, Date.now());
    const answer = await callRoute(message, { path: "/message", token: me.token, form: { intent: "start", member: String(blocker) } });
    expect([answer.status, answer.location]).toEqual([303, `/personal?member=${blocker}`]);
    expect(flashOf(answer)).toMatchObject({ kind: "error", key: "safety.notAvailable" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM conversation_members WHERE user_id = ?").bind(me.id).first("n")).toBe(0);
  });

  it("sends with the composer's form, stores a resent form once, and refuses an empty message with 400", async () => {
    const { alice, id } = await started();
    const path = `/message?conversation=${id}`;
    const empty = await callRoute<{ composer: Reply }>(message, {
      path,
      token: alice.token,
      form: { body: "  ", client_id: crypto.randomUUID() },
    });
    expect([empty.status, empty.data.composer.error?.body]).toEqual([400, ["validation.inputEmpty"]]);
    const badKey = await callRoute<{ composer: Reply }>(message, { path, token: alice.token, form: { body: "hello", client_id: "x" } });
    expect([badKey.status, badKey.data.composer.error?.client_id]).toEqual([400, ["notify.requestFailed"]]);
    expect(await bodies(id)).toEqual([]);
    const form = { body: "Sent by a form", client_id: crypto.randomUUID() };
    for (let i = 0; i < 2; i++) {
      const sent = await callRoute(message, { path, token: alice.token, form });
      expect([sent.status, sent.location]).toEqual([303, path]);
    }
    expect(await bodies(id)).toEqual(["Sent by a form"]);
  });

  it("opens a conversation with its history and marks it read before the badge is counted", async () => {
    const { alice, bob, id } = await started();
    await sendMessage(id, alice.id, "one");
    await sendMessage(id, alice.id, "two");
    expect(await unreadTotal(bob.id)).toBe(2);
    const opened = await callRoute<{ open: { id: number; messages: { body: string }[] } }>(message, {
      path: `/message?conversation=${id}`,
      token: bob.token,
    });
    expect(opened.status).toBe(200);
    expect(opened.data.open.messages.map((m) => m.body)).toEqual(["one", "two"]);
    expect(await unreadTotal(bob.id)).toBe(0);
  });

  it("shows a conversation opened from another site's link without marking it read", async () => {
    const { alice, bob, id } = await started();
    await sendMessage(id, alice.id, "one");
    const path = `/message?conversation=${id}`;
    const opened = await callRoute(message, { path, token: bob.token, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(opened.status).toBe(200);
    expect(await unreadTotal(bob.id)).toBe(1);
    await callRoute(message, { path, token: bob.token, headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(await unreadTotal(bob.id)).toBe(0);
  });

  it("answers a blocked sender's message with 403 and the neutral refusal, storing nothing", async () => {
    const { alice, bob, id } = await started();
    await block(bob.id, alice.id, Date.now());
    const answer = await callRoute<{ composer: Reply }>(message, {
      path: `/message?conversation=${id}`,
      token: alice.token,
      form: { body: "hello?", client_id: crypto.randomUUID() },
    });
    expect([answer.status, answer.data.composer.error?.[""]]).toEqual([403, ["safety.notAvailable"]]);
    expect(await bodies(id)).toEqual([]);
  });

  // Moved from tests/e2e/messaging.spec.ts ("the badge reads 99+ after 100 unread messages, and a third member is refused": its post as the third member).
  it("a third member is refused: opening or posting into someone else's conversation is 404, and nothing is stored", async () => {
    const { alice, id } = await started();
    await sendMessage(id, alice.id, "note 0");
    const eve = await signedIn("Eve Outside");
    const path = `/message?conversation=${id}`;
    expect((await callRoute(message, { path, token: eve.token })).status).toBe(404);
    const posted = await callRoute(message, { path, token: eve.token, form: { body: "let me in", client_id: `eve-${id}-0001` } });
    expect(posted.status).toBe(404);
    expect(await bodies(id)).not.toContain("let me in");
    expect(await bodies(id)).toEqual(["note 0"]);
    expect((await callRoute(message, { path: "/message?conversation=999999", token: eve.token })).status).toBe(404);
  });
});
