import { describe, expect, it } from "vitest";
import { call, registered, userId } from "./api-helpers";

// The conversations API (app/api/conversations.ts): starting one, sending once per client id,
// paging the history both ways, unread counts, and members outside it kept out.

describe("the JSON API (spec section 7)", () => {
  it("pages a conversation's history from its first message with after=0", async () => {
    const a = await registered();
    const b = await registered();
    const token = (res: { json: { data?: unknown } }) => (res.json.data as { access_token: string }).access_token;
    const started = await call("POST", "/conversations", { token: token(a.res), body: { user_id: userId(b.res) } });
    const id = (started.json.data as { conversation: { id: number } }).conversation.id;
    for (let i = 0; i < 3; i++)
      await call("POST", `/conversations/${id}/messages`, { token: token(a.res), body: { body: `m${i}`, client_id: `history-${i}-0000` } });
    const page = await call("GET", `/conversations/${id}/messages?after=0&limit=2`, { token: token(a.res) });
    expect((page.json.data as { messages: { body: string }[]; has_more: boolean }).messages.map((m) => m.body)).toEqual(["m0", "m1"]);
    expect((page.json.data as { has_more: boolean }).has_more).toBe(true);
  });
});

describe("the conversations API (spec section 7)", () => {
  it("starts a conversation, sends once per client id, pages history, counts unread, and keeps others out", async () => {
    const alice = await registered();
    const bob = await registered();
    const eve = await registered();
    const [a = "", b = "", e = ""] = [alice, bob, eve].map((m) => String(m.res.json.data?.access_token));
    const started = await call("POST", "/conversations", { token: a, body: { user_id: userId(bob.res) } });
    expect(started.status).toBe(201);
    const id = Number((started.json.data?.conversation as { id: number } | undefined)?.id);
    expect((await call("POST", "/conversations", { token: b, body: { user_id: userId(alice.res) } })).status).toBe(200);
    expect((await call("POST", "/conversations", { token: a, body: { user_id: 987654321 } })).status).toBe(404);
    expect((await call("POST", "/conversations", { token: a, body: {} })).status).toBe(400);

    const send = (body: string, client_id: string, token = a) =>
      call("POST", `/conversations/${id}/messages`, { token, body: { body, client_id } });
    expect((await send("hello Bob", "client-0001")).status).toBe(201);
    const again = await send("hello Bob", "client-0001");
    expect(again.status).toBe(200);
    const empty = await send("   ", "client-0002");
    expect([empty.status, empty.json.message]).toEqual([400, "Input Cannot Empty"]);
    expect((await send("x".repeat(2001), "client-0003")).status).toBe(400);
    for (let i = 4; i < 40; i++) expect((await send(`m${i}`, `client-00${i}`)).status).toBe(201);

    const unreadFor = async (token: string) => {
      const list = await call("GET", "/conversations", { token });
      expect(list.json.code).toBe(0);
      return (list.json.data?.conversations as { id: number; unread_count: number }[] | undefined)?.find((c) => c.id === id)?.unread_count;
    };
    expect(await unreadFor(b)).toBe(37);

    const newest = await call("GET", `/conversations/${id}/messages?limit=10`, { token: b });
    const page = newest.json.data as { messages: { id: number; body: string }[]; has_more: boolean };
    expect(page.messages.map((m) => m.body)).toEqual(Array.from({ length: 10 }, (_, i) => `m${30 + i}`));
    expect(page.has_more).toBe(true);
    const older = (await call("GET", `/conversations/${id}/messages?before=${page.messages[0]?.id}&limit=100`, { token: b })).json
      .data as typeof page;
    expect(older.messages.map((m) => m.body)).toEqual(["hello Bob", ...Array.from({ length: 26 }, (_, i) => `m${4 + i}`)]);
    expect(older.has_more).toBe(false);
    // Reading the newest page marked it read.
    expect(await unreadFor(b)).toBe(0);

    expect((await call("GET", `/conversations/${id}/messages`, { token: e })).status).toBe(404);
    expect((await send("let me in", "client-eve1", e)).status).toBe(404);
    expect((await call("GET", "/conversations", {})).json.code).toBe(4010);
  });
});
