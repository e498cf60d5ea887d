import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sendWithHttpApi } from "~/.server/mail/http-api";
import { sendMail } from "~/.server/mail/mail";
import { listOutbox } from "~/.server/mail/outbox";

/**
 * A fake of the provider's published HTTP API (POST /emails, Bearer key, JSON {from, to[], subject,
 * text|html}; 200 {id}; 401 without a valid key; 422 for an invalid body), standing in at the HTTP boundary.
 */
function fakeProvider(validKey = "re_test_key") {
  const sent: unknown[] = [];
  // An Idempotency-Key seen before answers the first id and sends nothing (the provider's published behaviour).
  const seen = new Map<string, string>();
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method !== "POST" || url.pathname !== "/emails") return Response.json({ message: "Not found" }, { status: 404 });
    if (request.headers.get("Authorization") !== `Bearer ${validKey}`)
      return Response.json({ message: "API key is invalid" }, { status: 401 });
    if (!request.headers.get("Content-Type")?.startsWith("application/json"))
      return Response.json({ message: "Invalid body" }, { status: 422 });
    const body = (await request.json()) as { from?: string; to?: string[]; subject?: string; text?: string; html?: string };
    if (!body.from || !Array.isArray(body.to) || body.to.length === 0 || !body.subject || !(body.text || body.html)) {
      return Response.json({ name: "validation_error", message: "Missing required field" }, { status: 422 });
    }
    const key = request.headers.get("Idempotency-Key");
    const earlier = key ? seen.get(key) : undefined;
    if (earlier) return Response.json({ id: earlier });
    const id = crypto.randomUUID();
    if (key) seen.set(key, id);
    sent.push(body);
    return Response.json({ id });
  }) as typeof fetch;
  return { fetcher, sent };
}

const message = { to: "member@test.example", subject: "Your code", text: "Your verification code is 123456." };

describe("mail", () => {
  it("the HTTP adapter sends through the provider's API and returns its id", async () => {
    const provider = fakeProvider();
    const id = await sendWithHttpApi(
      message,
      { apiUrl: "https://mail.provider.test/", apiKey: "re_test_key", from: "Research Commons <no-reply@x.test>" },
      provider.fetcher,
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(provider.sent).toEqual([
      { from: "Research Commons <no-reply@x.test>", to: ["member@test.example"], subject: "Your code", text: message.text },
    ]);
  });

  it("the HTTP adapter gives the provider the message's idempotency key, so a repeated job mails once", async () => {
    const provider = fakeProvider();
    const config = { apiUrl: "https://mail.provider.test", apiKey: "re_test_key", from: "a@x.test" };
    const once = { ...message, idempotencyKey: "meeting-1-0-invite-abc" };
    const first = await sendWithHttpApi(once, config, provider.fetcher);
    expect(await sendWithHttpApi(once, config, provider.fetcher)).toBe(first);
    expect(provider.sent).toHaveLength(1);
    await sendWithHttpApi(message, config, provider.fetcher);
    await sendWithHttpApi(message, config, provider.fetcher);
    expect(provider.sent).toHaveLength(3);
  });

  it("the HTTP adapter fails loudly when the provider refuses", async () => {
    const provider = fakeProvider("another key");
    await expect(
      sendWithHttpApi(message, { apiUrl: "https://mail.provider.test", apiKey: "re_test_key", from: "a@x.test" }, provider.fetcher),
    ).rejects.toThrow("mail provider answered 401");
    expect(provider.sent).toEqual([]);
  });

  it("locally (MAIL_PROVIDER=outbox) keeps every message in D1 for /dev/mail", async () => {
    expect(env.MAIL_PROVIDER).toBe("outbox");
    await sendMail(message);
    const [latest] = await listOutbox(1);
    expect(latest).toMatchObject({ to_email: message.to, subject: message.subject, body: message.text });
    // An idempotency key is honoured as the provider honours it: the repeat is not kept.
    const once = { ...message, to: "once@test.example", idempotencyKey: "outbox-key-1" };
    await sendMail(once);
    await sendMail(once);
    expect((await listOutbox(50)).filter((mail) => mail.to_email === "once@test.example")).toHaveLength(1);
  });
});
