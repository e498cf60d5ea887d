import { z } from "zod";
import { memberText } from "./content";
import { CLIENT_KEY } from "./text";

// docs/decisions/0010-messaging.md: the limit the spec leaves open.
export const MESSAGE_MAX = 2000;

/** A message as a member sends it: text, and the id their page chose so a resend stores once. */
export const messageSchema = z.object({
  body: memberText(MESSAGE_MAX, "validation.messageTooLong"),
  client_id: z.string().regex(CLIENT_KEY, "notify.requestFailed"),
});
export type MessageInput = z.infer<typeof messageSchema>;
