import { z } from "zod";
import { conversationFor, listConversations, sendMessage, startConversation } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { messageSchema } from "~/lib/schemas/message";
import * as answers from "./answers";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// The spec's /conversations calls (section 7), over the service and Durable Object the pages use.

/** Which messages: the newest, or those before / after a message id; at most `limit` (1-100, default 30). */
const position = z.coerce.number().int().min(0).optional().catch(undefined);
const historyQuery = z.object({
  before: position,
  after: position,
  limit: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
});

const startBody = z.object({
  user_id: z.coerce.number({ error: "notify.requestFailed" }).int("notify.requestFailed").positive("notify.requestFailed"),
});

export const conversationRoutes = [
  forMember({
    method: "GET",
    path: "/conversations",
    summary: "Your conversations, latest activity first, each with its unread_count",
    answers: { 200: answers.conversations },
    handle: async ({ member }) => ok({ conversations: await listConversations(member.user.id) }),
  }),
  // Starts a conversation with user_id, or answers the existing one (200 instead of 201).
  forMember({
    method: "POST",
    path: "/conversations",
    summary: "Start a conversation with user_id, or get the existing one (200); 403 when it is not available to you",
    body: startBody,
    answers: { 201: answers.startedConversation, 200: answers.startedConversation, 403: REFUSAL, 404: REFUSAL },
    handle: async ({ ctx, member, body }) => {
      const started = await startConversation(member.user.id, body.user_id, ctx.now);
      const conversation = (await listConversations(member.user.id)).find((c) => c.id === started.id);
      if (!conversation) return notFound(ctx.language, "member");
      return ok({ conversation }, "ok", { status: started.created ? 201 : 200 });
    },
  }),
  // History, oldest first: the newest `limit` (1-100, default 30), or those `before` / `after` a message id.
  forMember({
    method: "GET",
    path: "/conversations/{id}/messages",
    summary: "History, oldest first: the newest `limit` messages, or those `before` / `after` a message id",
    description:
      "has_more says whether more lie in that direction. Reading the newest page marks the conversation read. 404 to anyone who is not in the conversation.",
    query: historyQuery,
    answers: { 200: answers.messages, 404: REFUSAL },
    handle: async ({ ctx, member, query, params: [id] }) => {
      const conversationId = Number(id);
      if (!(await conversationFor(conversationId, member.user.id))) return notFound(ctx.language, "conversation");
      const room = conversationRoom(conversationId);
      const page = await room.history(conversationId, query);
      // Reading the newest page marks the conversation read, as opening it on the page does.
      if (query.before === undefined && query.after === undefined) await room.read(conversationId, member.user.id);
      return ok(page);
    },
  }),
  // Sends a message; the same client_id again answers the stored message (200) without a second copy.
  forMember({
    method: "POST",
    path: "/conversations/{id}/messages",
    summary: "Send a message; the same client_id again answers the stored message (200) and stores nothing new",
    description:
      "'Input Cannot Empty' when blank. 403 when sending is not available to you. client_id is the message's idempotency key: what client_key is to the other calls that take one, named as the spec's clients send it.",
    body: messageSchema,
    answers: { 201: answers.sentMessage, 200: answers.sentMessage, 403: REFUSAL, 404: REFUSAL },
    handle: async ({ member, body, params: [id] }) => {
      const conversationId = Number(id);
      // The room answers membership itself: no D1 trip on the way to a message.
      const sent = await sendMessage(conversationId, member.user.id, body);
      return ok({ message: sent.message }, "ok", { status: sent.created ? 201 : 200 });
    },
  }),
];
