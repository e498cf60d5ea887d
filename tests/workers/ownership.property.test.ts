import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { startConversation } from "~/.server/messaging/conversations";
import { block } from "~/.server/social/blocks";
import { addComment } from "~/.server/social/social";
import { handleSocket } from "~/.server/web/sockets";
import { handleApi } from "~/api/router";
import { history, newItem, newMember, sendMessage, testCaller } from "./helpers";

/** How many messages a conversation's room holds (every test conversation has fewer than 100). */
const storedIn = async (id: number) => (await history(id, { limit: 100 })).messages.length;

// Property tests over generated worlds of members, items, comments, conversations, sessions and
// blocks: whatever the world, no member reads or changes what is not theirs through the API, the
// files or the sockets, and a blocked member reaches nothing the block covers.

const world = fc.record({
  members: fc.integer({ min: 2, max: 4 }),
  items: fc.array(fc.record({ owner: fc.nat(), publicize: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  comments: fc.array(fc.record({ author: fc.nat(), item: fc.nat() }), { maxLength: 3 }),
  conversations: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
  blocks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 2 }),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

async function build(w: World) {
  const pick = (n: number) => n % w.members;
  const members = [];
  for (let i = 0; i < w.members; i++) {
    const id = await newMember(`M${i}`);
    members.push({ id, token: await createSession(id, Date.now()) });
  }
  const items = [];
  for (const spec of w.items) {
    const owner = pick(spec.owner);
    const id = await newItem(members[owner]?.id ?? 0, { publicize: spec.publicize ? 1 : 0, title: "original" });
    const row = await env.DB.prepare("SELECT file_key FROM content WHERE id = ?").bind(id).first<{ file_key: string }>();
    await env.FILES.put(row?.file_key ?? "", "bytes");
    items.push({ id, owner, publicize: spec.publicize });
  }
  const comments = [];
  for (const spec of w.comments) {
    const item = items[spec.item % items.length];
    const author = pick(spec.author);
    if (!item || (!item.publicize && item.owner !== author)) continue;
    await addComment(members[author]?.id ?? 0, item.id, "a comment", Date.now());
    const row = await env.DB.prepare("SELECT max(id) AS id FROM comments WHERE user_id = ?")
      .bind(members[author]?.id)
      .first<{ id: number }>();
    comments.push({ id: row?.id ?? 0, author, item });
  }
  const conversations: { id: number; members: number[] }[] = [];
  for (const [x, y] of w.conversations) {
    const [a, b] = [pick(x), pick(y)];
    if (a === b || conversations.some((c) => c.members.includes(a) && c.members.includes(b))) continue;
    const started = await startConversation(members[a]?.id ?? 0, members[b]?.id ?? 0, Date.now());
    await sendMessage(started.id, members[a]?.id ?? 0, "hello");
    conversations.push({ id: started.id, members: [a, b] });
  }
  const blocks: [number, number][] = [];
  for (const [x, y] of w.blocks) {
    const [blocker, blocked] = [pick(x), pick(y)];
    if (blocker === blocked) continue;
    await block(members[blocker]?.id ?? 0, members[blocked]?.id ?? 0, Date.now());
    blocks.push([blocker, blocked]);
  }
  return { members, items, comments, conversations, blocks };
}

async function api(token: string, method: string, path: string, body?: unknown) {
  const request = new Request(`https://app.test/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handleApi({ ...testCaller(Date.now()).caller, request });
  return response.status;
}

const count = async (sql: string, ...values: unknown[]) =>
  Number(
    await env.DB.prepare(sql)
      .bind(...values)
      .first("n"),
  );

describe("ownership, whatever the world", () => {
  it("no member reads or changes another's private items, files, comments or conversations", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { members, items, comments, conversations } = await build(w);
        for (const [index, actor] of members.entries()) {
          for (const item of items.filter((i) => i.owner !== index)) {
            const visible = item.publicize ? 200 : 404;
            expect(await api(actor.token, "GET", `/contents/${item.id}`)).toBe(visible);
            expect(await api(actor.token, "GET", `/contents/${item.id}/file`)).toBe(visible);
            const edit = { sdg: 1, title: "stolen", summary: "s", content: "c", keywords: "k", publicize: "1" };
            expect(await api(actor.token, "PATCH", `/contents/${item.id}`, edit)).toBe(404);
            expect(await api(actor.token, "DELETE", `/contents/${item.id}`)).toBe(404);
            expect(await count("SELECT count(*) AS n FROM content WHERE id = ? AND title = 'original'", item.id)).toBe(1);
          }
          for (const comment of comments.filter((c) => c.author !== index)) {
            expect(await api(actor.token, "DELETE", `/comments/${comment.id}`)).toBe(404);
            expect(await count("SELECT count(*) AS n FROM comments WHERE id = ?", comment.id)).toBe(1);
          }
          for (const conversation of conversations.filter((c) => !c.members.includes(index))) {
            const before = await storedIn(conversation.id);
            expect(await api(actor.token, "GET", `/conversations/${conversation.id}/messages`)).toBe(404);
            const message = { body: "intruding", client_id: crypto.randomUUID() };
            expect(await api(actor.token, "POST", `/conversations/${conversation.id}/messages`, message)).toBe(404);
            expect(await storedIn(conversation.id)).toBe(before);
            const socket = await handleSocket(
              new Request(`https://app.test/live/conversations/${conversation.id}`, {
                headers: { Upgrade: "websocket", Cookie: `token=Bearer%20${actor.token}` },
              }),
            );
            expect(socket.status).not.toBe(101);
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it("a blocked member can follow, comment on, start a conversation with or message the blocker in no way", async () => {
    const withBlocks = world.filter((w) => w.blocks.some(([x, y]) => x % w.members !== y % w.members));
    await fc.assert(
      fc.asyncProperty(withBlocks, async (w) => {
        const { members, items, conversations, blocks } = await build(w);
        for (const [blocker, blocked] of blocks) {
          const them = members[blocked];
          const me = members[blocker];
          if (!them || !me) continue;
          expect(await api(them.token, "POST", `/users/${me.id}/follow`)).toBe(403);
          expect(await count("SELECT count(*) AS n FROM follows WHERE follower_id = ? AND followee_id = ?", them.id, me.id)).toBe(0);
          for (const item of items.filter((i) => i.owner === blocker && i.publicize)) {
            const before = await count("SELECT count(*) AS n FROM comments WHERE content_id = ?", item.id);
            expect(await api(them.token, "POST", `/contents/${item.id}/comments`, { body: "still here" })).toBe(403);
            expect(await count("SELECT count(*) AS n FROM comments WHERE content_id = ?", item.id)).toBe(before);
          }
          expect(await api(them.token, "POST", "/conversations", { user_id: me.id })).toBe(403);
          for (const conversation of conversations.filter((c) => c.members.includes(blocker) && c.members.includes(blocked))) {
            const before = await storedIn(conversation.id);
            for (const sender of [them, me]) {
              const message = { body: "through the wall", client_id: crypto.randomUUID() };
              expect(await api(sender.token, "POST", `/conversations/${conversation.id}/messages`, message)).toBe(403);
            }
            expect(await storedIn(conversation.id)).toBe(before);
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
