import { register, sendVerificationCode } from "~/.server/accounts/accounts";
import { mailedCode, newMember, testCaller, uniqueEmail } from "../helpers";
import { type PageAnswer, sessionFor } from "../route";

// What the page tests share: members with a password that works, the flash notice, Conform's reply.

export const PASSWORD = "a long walk by the river";

/** A member with a password that works (for forms that ask for it), made through the accounts service. */
export async function account(email = uniqueEmail("page"), kind: "individual" | "facilitator" = "individual") {
  const { caller, settle } = testCaller(Date.now());
  await sendVerificationCode(email, "register", caller);
  await settle();
  const made = await register(
    {
      email,
      code: await mailedCode(email),
      password: PASSWORD,
      nickName: "Pager",
      accountType: kind === "facilitator" ? 2 : 1,
      kind,
      organisation: kind === "facilitator" ? "Blue Fund" : undefined,
    },
    caller,
  );
  return { email, id: made.user.id, token: made.token };
}

/** The notice a redirect carries (the flash cookie), or null. */
export const flashOf = (answer: PageAnswer) =>
  JSON.parse(answer.cookies.flash ?? "null") as { id: string; kind: string; key: string } | null;

/** Conform's reply to a form (what the page shows beside each field; "" is the form's own). */
export interface Reply {
  status?: string;
  error?: Record<string, string[] | null>;
  initialValue?: Record<string, unknown>;
}

/** A client address of its own, so per-address limits never mix tests up. */
export const elsewhere = () => ({
  "CF-Connecting-IP": `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});

/** A member (straight in D1) with a session token. */
export async function signedIn(name = "Member") {
  const id = await newMember(name);
  return { id, token: await sessionFor(id) };
}
