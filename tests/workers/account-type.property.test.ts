import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { document, handleApi } from "~/api/router";
import { newMember, testCaller } from "./helpers";

// The account type is chosen at sign-up and never changes (spec section 1): no documented call
// changes it, whatever body it is sent, the ones that save a member's own settings included.

type Doc = { paths: Record<string, Record<string, unknown>> };

/** A body every settings call accepts, so the type change rides on a call that does save. */
const VALID = {
  nickName: "Still Fixed",
  sex: "other",
  birthday: "1970-01-01",
  address: "a",
  firstName: "a",
  middleName: "a",
  familyName: "a",
  country: "FR",
  nationality: "FR",
  academic: "a",
  research: "a",
  website: "https://example.org",
  phone: "+33123456789",
  purpose: "a",
  public: true,
  tag: "science",
  sdg: 3,
};

const change = fc.record({
  account_type: fc.constantFrom(1, 2, "2", 3),
  accountType: fc.constantFrom(1, 2, "2"),
  kind: fc.constantFrom("individual", "facilitator"),
  user: fc.constant({ account_type: 2 }),
});

describe("the account type", () => {
  it("stays what sign-up chose through every documented call, whatever the body says", async () => {
    const me = await newMember("Fixed Type", 1);
    const token = await createSession(me, Date.now());
    const operations = Object.entries((document() as Doc).paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => method !== "get" && !path.includes("logout") && path !== "/settings/account")
        .map((method) => ({ path, method: method.toUpperCase() })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), change, fc.boolean(), async ({ path, method }, type, valid) => {
        const body = valid ? { ...VALID, ...type } : type;
        const concrete = path.replace(/\{\w+\}/g, String(me));
        const request = new Request(`https://app.test/api${concrete}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        const response = await handleApi({ ...testCaller(Date.now()).caller, request });
        await response.arrayBuffer();
        const row = await env.DB.prepare("SELECT account_type, kind FROM users WHERE id = ?").bind(me).first();
        expect(row, `${method} ${path}`).toEqual({ account_type: 1, kind: "individual" });
      }),
      { numRuns: 120 },
    );
  });
});
