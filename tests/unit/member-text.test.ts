import { describe, expect, it } from "vitest";
import { signupSchema } from "~/lib/schemas/auth";
import { commentSchema, contentFieldsSchema } from "~/lib/schemas/content";
import { messageSchema } from "~/lib/schemas/message";

const item = (title: string) => ({ kind: "document", sdg: "6", title, summary: "s", content: "c", keywords: "k", publicize: "1" });
const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe("member text", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["a search-match marker", "\u0001fake highlight\u0002"],
    ["a right-to-left override", "invoice\u202Eexe.txt"],
    ["a bidi isolate", "x\u2066y"],
    ["a C1 control", "a\u0085b"],
  ])("refuses %s with a translated message, in titles, comments and messages", (_, text) => {
    expect(firstMessage(contentFieldsSchema.safeParse(item(text)))).toBe("validation.hiddenCharacters");
    expect(firstMessage(commentSchema.safeParse({ body: text }))).toBe("validation.hiddenCharacters");
    expect(firstMessage(messageSchema.safeParse({ body: text, client_id: "client-0001" }))).toBe("validation.hiddenCharacters");
  });

  it("keeps line breaks and tabs, and stores one spelling of each letter (NFC)", () => {
    expect(commentSchema.parse({ body: "line one\n\tline two" }).body).toBe("line one\n\tline two");
    expect(contentFieldsSchema.parse(item("Cafe\u0301 culture")).title).toBe("Caf\u00e9 culture");
    expect(commentSchema.parse({ body: "日本語と中文 ✓" }).body).toBe("日本語と中文 ✓");
  });

  it("applies to names given at sign-up", () => {
    const signup = signupSchema("individual");
    const result = signup.safeParse({
      intent: "register",
      accountType: "1",
      email: "a@b.example",
      code: "123456",
      nickName: "Ada\u202E",
      password: "long enough password",
      confirmPassword: "long enough password",
    });
    expect(result.error?.issues.map((i) => i.message)).toContain("validation.hiddenCharacters");
  });
});
