import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AccountError } from "~/.server/accounts/account-error";
import { UploadRefused } from "~/.server/content/upload-errors";
import { translator } from "~/.server/i18n/translate";
import { ProviderUnavailable } from "~/.server/meetings/schedule";
import { Refused } from "~/.server/refused";
import { refusalNotice, refusalReply } from "~/.server/web/shell/refusals";
import { snakeName } from "~/api/casing";
import { refusalAnswer } from "~/api/envelope";
import { translateError } from "~/lib/form-errors";
import { LANGUAGES } from "~/lib/i18n";

// Every kind of refusal a service throws, through both adapters: the API's envelope and a page's
// form reply. Each must mean its status, name its field, and read translated in en, ja and zh.

const KINDS: { name: string; refusal: Refused; status: number; field?: string }[] = [
  { name: "wrong credentials", refusal: new AccountError("invalid_credentials"), status: 401 },
  { name: "a limit, with its wait", refusal: new AccountError("rate_limited", undefined, 30), status: 429 },
  { name: "a code beside its field", refusal: new AccountError("code_invalid", "code"), status: 400, field: "code" },
  { name: "a suspension, with its reason", refusal: new AccountError("suspended", undefined, undefined, "harassment"), status: 403 },
  { name: "an upload of the wrong type", refusal: new UploadRefused("file", "type"), status: 415, field: "file" },
  { name: "an upload too large", refusal: new UploadRefused("thumbnail", "size"), status: 413, field: "thumbnail" },
  { name: "too many open uploads", refusal: new UploadRefused("file", "too-many"), status: 429, field: "file" },
  { name: "a broken upload body", refusal: new UploadRefused("form", "size"), status: 400 },
  { name: "the meeting provider failing", refusal: new ProviderUnavailable(false), status: 502 },
  { name: "the meeting provider busy", refusal: new ProviderUnavailable(true), status: 502 },
  {
    name: "a field a service judged",
    refusal: new Refused("validation.meetingStartPast", { field: "startsAt" }),
    status: 400,
    field: "startsAt",
  },
  { name: "a stale edit", refusal: new Refused("validation.meetingChanged", { status: 409 }), status: 409 },
  { name: "a limit with its value", refusal: new Refused("validation.maxTags|max=3", { field: "tag" }), status: 400, field: "tag" },
  { name: "a full block list", refusal: new Refused("safety.blockListFull|max=1000"), status: 400 },
];

const generic = (language: (typeof LANGUAGES)[number]) => translator(language)("validation.inputInvalid");

describe("a refusal", () => {
  it.each(KINDS)("reads translated in en, ja and zh: $name", ({ refusal }) => {
    const texts = LANGUAGES.map((language) => translateError(translator(language), refusal.key));
    texts.forEach((text, i) => {
      expect(text, LANGUAGES[i]).not.toBe(generic(LANGUAGES[i] ?? "en"));
      expect(text).not.toMatch(/\{\{|validation\.|safety\./);
    });
    expect(new Set(texts).size).toBe(LANGUAGES.length);
  });

  it.each(KINDS)("is answered by the API with its status, code, message and field: $name", async ({ refusal, status, field }) => {
    for (const language of LANGUAGES) {
      const answer = refusalAnswer(language, refusal);
      const body = (await answer.json()) as { code: number; message: string; errors?: Record<string, string[]> };
      const message = translateError(translator(language), refusal.key);
      expect([answer.status, body.code, body.message]).toEqual([status, status, message]);
      // The API names fields in snake_case (a service may name the form's field).
      expect(body.errors).toEqual(field ? { [snakeName(field)]: [message] } : undefined);
      expect(answer.headers.get("Retry-After")).toBe(refusal.retryAfter ? String(refusal.retryAfter) : null);
    }
  });

  it.each(KINDS)(
    "is answered by a page's form beside its field (or above the form), with its status: $name",
    ({ refusal, status, field }) => {
      const form = new FormData();
      form.set("words", "typed by the member");
      form.set("password", "never sent back");
      const submission = parseWithZod(form, { schema: z.object({ words: z.string(), password: z.string() }) });
      const { reply, status: answered } = refusalReply(submission, refusal);
      expect(answered).toBe(status);
      expect(reply.error).toEqual({ [field ?? ""]: [refusal.key] });
      expect(reply.initialValue).toEqual({ words: "typed by the member" });
    },
  );

  it("may name several fields at once (a form checked whole), each translated by the API and beside its field on a page", async () => {
    const refusal = Refused.inFields(
      { title: ["validation.fieldEmpty|field=fields.title"], captionsLang: ["content.captionsLanguageInvalid"] },
      { sent: { title: "", captionsLang: "xx-?" } },
    );
    expect([refusal.key, refusal.field, refusal.status]).toEqual(["validation.fieldEmpty|field=fields.title", "title", 400]);
    const t = translator("ja");
    const body = (await refusalAnswer("ja", refusal).json()) as { message: string; errors: Record<string, string[]> };
    expect(body).toMatchObject({
      message: translateError(t, "validation.fieldEmpty|field=fields.title"),
      errors: {
        title: [translateError(t, "validation.fieldEmpty|field=fields.title")],
        captions_lang: [translateError(t, "content.captionsLanguageInvalid")],
      },
    });
    // A post read once comes back from what the refusal carries.
    const { reply, status } = refusalReply(undefined, refusal);
    expect([status, reply.initialValue, reply.error]).toEqual([400, refusal.sent, refusal.fields]);
  });

  it("about nothing that is there (404 without a field) is the page's 404, on a form and a button alike", () => {
    const gone = new Refused("content.notFound", { status: 404 });
    const thrown = (answer: () => unknown) => {
      try {
        answer();
      } catch (error) {
        return error;
      }
    };
    for (const answer of [() => refusalReply({}, gone), () => refusalNotice(new Request("https://x.test/"), "/", gone)])
      expect(thrown(answer)).toMatchObject({ init: { status: 404 } });
    // Beside a field, a 404 is that field's (a DOI no registry knows).
    expect(refusalReply({}, new Refused("validation.doiNotFound", { field: "doi", status: 404 })).status).toBe(404);
  });

  it("is the only thing the adapters answer: anything else is thrown on (a 500 with the request id)", () => {
    const submission = parseWithZod(new FormData(), { schema: z.object({}) });
    expect(() => refusalReply(submission, new Error("D1 is down"))).toThrow("D1 is down");
  });
});
