import { z } from "zod";
import { MESSAGE_MAX } from "~/lib/limits";
import { memberText } from "./content";
import { CLIENT_KEY } from "./text";

/** A message as a member sends it: text, and the id their page chose so a resend stores once. */
export const messageSchema = z.object({
  body: memberText(MESSAGE_MAX, "validation.messageTooLong"),
  client_id: z.string().regex(CLIENT_KEY, "notify.requestFailed"),
});
export type MessageInput = z.infer<typeof messageSchema>;
