import { env } from "~/.server/bindings";
import { translator } from "~/.server/i18n/translate";
import { conversationFor, listConversations, messagesPage, startConversation } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { translateError } from "~/lib/form-errors";
import { messageSchema } from "~/lib/schemas/message";
import { type ApiContext, authenticate } from "./context";
import { API_CODES, fail, notAvailable, notFound, ok } from "./envelope";

// The spec's /conversations calls (section 7), over the service and Durable Object the pages use.

const badRequest = (ctx: ApiContext, field: string, key: string) => {
  const message = translateError(translator(ctx.language), key);
  return fail(400, API_CODES.badRequest, message, { [field]: [message] });
};

export async function getConversations(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok({ conversations: await listConversations(env.DB, auth.user.id) });
}

/** Starts a conversation with `user_id`, or answers the existing one (200 instead of 201). */
export async function postConversation(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const body = (await ctx.request.json().catch(() => null)) as { user_id?: unknown } | null;
  const other = Number(body?.user_id);
  if (!Number.isInteger(other) || other <= 0 || other === auth.user.id) return badRequest(ctx, "user_id", "notify.requestFailed");
  const started = await startConversation(env.DB, auth.user.id, other, ctx.now);
  if (!started) return notFound(ctx.language, "member");
  if (started === "refused") return notAvailable(ctx.language);
  const conversation = (await listConversations(env.DB, auth.user.id)).find((c) => c.id === started.id);
  return ok({ conversation }, "ok", { status: started.created ? 201 : 200 });
}

/** History, oldest first: the newest `limit` (1-100, default 30), or those `before` / `after` a message id. */
export async function getMessages(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const conversationId = Number(id);
  if (!(await conversationFor(env.DB, conversationId, auth.user.id))) return notFound(ctx.language, "conversation");
  const params = new URL(ctx.request.url).searchParams;
  const number = (name: string) => (params.has(name) ? Number(params.get(name)) || 0 : undefined);
  const page = await messagesPage(env.DB, conversationId, { before: number("before"), after: number("after"), limit: number("limit") });
  // Reading the newest page marks the conversation read, as opening it on the page does.
  if (!params.has("before") && !params.has("after")) await conversationRoom(env, conversationId).read(conversationId, auth.user.id);
  return ok(page);
}

/** Sends a message; the same client_id again answers the stored message (200) without a second copy. */
export async function postMessage(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const conversationId = Number(id);
  if (!(await conversationFor(env.DB, conversationId, auth.user.id))) return notFound(ctx.language, "conversation");
  const parsed = messageSchema.safeParse(await ctx.request.json().catch(() => null));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return badRequest(ctx, String(issue?.path[0] ?? "body"), issue?.message ?? "validation.inputEmpty");
  }
  const sent = await conversationRoom(env, conversationId).send(conversationId, auth.user.id, parsed.data);
  if (!sent) return notAvailable(ctx.language);
  return ok({ message: sent.message }, "ok", { status: sent.created ? 201 : 200 });
}
