import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

async function connect(room: DurableObjectStub) {
  const res = await room.fetch("http://room/", { headers: { Upgrade: "websocket" } });
  expect(res.status).toBe(101);
  const socket = res.webSocket;
  if (!socket) throw new Error("no WebSocket in the upgrade response");
  socket.accept();
  return socket;
}

function nextMessage(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => socket.addEventListener("message", (e) => resolve(String(e.data)), { once: true }));
}

describe("ConversationRoom (Durable Object, WebSocket Hibernation API)", () => {
  it("passes a message from one open page to the others, not back to the sender", async () => {
    const room = env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`room-${crypto.randomUUID()}`));
    const alice = await connect(room);
    const bob = await connect(room);
    const echoes: string[] = [];
    alice.addEventListener("message", (e) => echoes.push(String(e.data)));

    const received = nextMessage(bob);
    alice.send("hello bob");
    expect(await received).toBe("hello bob");
    expect(echoes).toEqual([]);
    alice.close(1000);
    bob.close(1000);
  });

  it("refuses plain requests that are not upgrades", async () => {
    const room = env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName("plain"));
    const res = await room.fetch("http://room/");
    expect(res.status).toBe(426);
  });
});
