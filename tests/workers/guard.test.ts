import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { logout } from "~/.server/accounts/accounts";
import { createSession, type SessionUser } from "~/.server/accounts/sessions";
import { requireUser, sessionContext, sessionMiddleware } from "~/.server/web/auth/session";
import { newMember } from "./helpers";

function contextWith(session: { user: SessionUser | null; expired: boolean }) {
  const context = new RouterContextProvider();
  context.set(sessionContext, { ...session, token: null });
  return context;
}

async function thrown(fn: () => unknown): Promise<Response> {
  try {
    fn();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a redirect");
}

describe("the guard", () => {
  const request = new Request("http://127.0.0.1:8787/retrieval/detail.data?id=7&tab=a%20b&_routes=routes%2Flayout");

  it("sends a guest to /login with the full page path and query, saying 'Please log in to view contents'", async () => {
    const response = await thrown(() => requireUser(request, contextWith({ user: null, expired: false })));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?redirect=${encodeURIComponent("/retrieval/detail?id=7&tab=a+b")}`);
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("flash=") && decodeURIComponent(c).includes("notify.loginRequired"))).toBe(true);
    expect(cookies.some((c) => c.startsWith("point="))).toBe(false);
  });

  it("tells a member whose session expired, sets the spec's point=401 cookie and clears the token", async () => {
    const response = await thrown(() => requireUser(request, contextWith({ user: null, expired: true })));
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((c) => decodeURIComponent(c).includes("notify.sessionExpired"))).toBe(true);
    expect(cookies).toContain("point=401; Path=/; SameSite=Lax; Max-Age=300");
    expect(cookies.some((c) => c.startsWith("token=;") && c.includes("Max-Age=0"))).toBe(true);
  });

  it("treats a session ended on the server (logged out elsewhere) as expired, and clears its dead cookie", async () => {
    const token = await createSession(await newMember("Gone"), Date.now());
    await logout(token);
    const context = new RouterContextProvider();
    const page = new Request("http://127.0.0.1:8787/home", { headers: { Cookie: `token=Bearer%20${token}` } });
    const middleware = sessionMiddleware as unknown as (args: object, next: () => Promise<Response>) => Promise<Response>;
    const response = await middleware({ request: page, context, params: {} }, async () => new Response("page"));
    expect(context.get(sessionContext)).toMatchObject({ user: null, expired: true });
    expect(response.headers.getSetCookie().some((c) => c.startsWith("token=;") && c.includes("Max-Age=0"))).toBe(true);
    const guarded = await thrown(() => requireUser(page, context));
    expect(guarded.headers.getSetCookie()).toContain("point=401; Path=/; SameSite=Lax; Max-Age=300");
  });

  it("lets a member through", () => {
    const user = { id: 1, nick_name: "A" } as SessionUser;
    expect(requireUser(request, contextWith({ user, expired: false }))).toBe(user);
  });
});
