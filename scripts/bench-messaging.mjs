// Part of `npm run bench` (run against the generated catalogue's server, whose bench-N@bench.test
// members all sign in with the demo password): message delivery latency between WebSocket clients
// — from one member's send to the other member's socket — with 1 and with 100 conversations at
// once, and messages per second through 1, 10 and 100 conversations sending at once.
// One conversation sends 200 messages one after another; 100 conversations send 20 rounds of 100 at once.
const ROUNDS = Number(process.env.BENCH_MESSAGE_ROUNDS ?? 20);
const SOLO_MESSAGES = Number(process.env.BENCH_SOLO_MESSAGES ?? 200);
const BURST = Number(process.env.BENCH_MESSAGE_BURST ?? 1000);

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms over ${times.length} messages`;
};

async function login(base, n) {
  const res = await fetch(`${base}/api/users/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.2.${Math.floor(n / 250)}.${n % 250}` },
    body: JSON.stringify({ email: `bench-${n}@bench.test`, pwd: "research-demo-2026" }),
  });
  return (await res.json()).data.access_token;
}

function openSocket(base, token, conversationId) {
  const url = `${base.replace(/^http/, "ws")}/live/conversations/${conversationId}`;
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () => resolve(socket), { once: true });
    socket.addEventListener("error", () => reject(new Error(`socket ${url} failed`)), { once: true });
  });
}

/** `count` conversations between fresh pairs of members, each with both members' sockets open. */
async function conversations(base, count, firstMember) {
  const pairs = [];
  for (let i = 0; i < count; i++) {
    const [a, b] = [firstMember + 2 * i, firstMember + 2 * i + 1];
    const [tokenA, tokenB] = [await login(base, a), await login(base, b)];
    const info = await (await fetch(`${base}/api/auth/info`, { headers: { Authorization: `Bearer ${tokenB}` } })).json();
    const started = await fetch(`${base}/api/conversations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokenA}`, "Content-Type": "application/json" },
      body: JSON.stringify({ user_id: info.data.user.id }),
    });
    const id = (await started.json()).data.conversation.id;
    pairs.push({ id, sender: await openSocket(base, tokenA, id), receiver: await openSocket(base, tokenB, id) });
  }
  return pairs;
}

/** Resolves when the receiver's socket gets the message with this client id. */
function arrival(socket, clientId) {
  return new Promise((resolve) => {
    const listener = (event) => {
      const data = JSON.parse(String(event.data));
      if (data.type === "message" && data.message.client_id === clientId) {
        socket.removeEventListener("message", listener);
        resolve(performance.now());
      }
    };
    socket.addEventListener("message", listener);
  });
}

async function latency(pairs, rounds) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      pairs.map(async ({ sender, receiver }, i) => {
        const clientId = `lat-${round}-${i}-${crypto.randomUUID()}`;
        const arrived = arrival(receiver, clientId);
        const sent = performance.now();
        sender.send(JSON.stringify({ type: "send", body: `round ${round}`, client_id: clientId }));
        times.push((await arrived) - sent);
      }),
    );
  }
  return times;
}

/** Messages per second when `pairs` conversations each send their share of BURST messages back to back, all at once. */
async function throughput(pairs) {
  const each = Math.ceil(BURST / pairs.length);
  const arrivals = pairs.map(
    ({ receiver }) =>
      new Promise((resolve) => {
        let received = 0;
        const listener = (event) => {
          if (JSON.parse(String(event.data)).type === "message" && ++received === each) {
            receiver.removeEventListener("message", listener);
            resolve();
          }
        };
        receiver.addEventListener("message", listener);
      }),
  );
  const started = performance.now();
  for (let i = 0; i < each; i++)
    for (const { sender } of pairs)
      sender.send(JSON.stringify({ type: "send", body: `burst ${i}`, client_id: `burst-${i}-${crypto.randomUUID()}` }));
  await Promise.all(arrivals);
  return (each * pairs.length) / ((performance.now() - started) / 1000);
}

export async function messaging(base) {
  console.log("\nMessage delivery (sender's WebSocket → stored in the conversation's Durable Object → receiver's WebSocket):");
  const one = await conversations(base, 1, 1);
  console.log(`  1 conversation:                 ${stats(await latency(one, SOLO_MESSAGES))}`);
  const hundred = await conversations(base, 100, 3);
  console.log(`  100 conversations at once:      ${stats(await latency(hundred, ROUNDS))}`);
  for (const pairs of [one, hundred.slice(0, 10), hundred]) {
    const label = `${pairs.length} conversation${pairs.length > 1 ? "s" : ""}, ${BURST} messages sent back to back:`;
    console.log(`  ${label.padEnd(58)} ${(await throughput(pairs)).toFixed(0)} messages/s`);
  }
  for (const { sender, receiver } of [...one, ...hundred]) {
    sender.close(1000);
    receiver.close(1000);
  }
}
