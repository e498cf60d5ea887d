// The workers-pool entry: the app's worker entry needs React Router's build, so tests get the
// Durable Object classes and services directly instead.
import { consumeQueue } from "../../workers/queues";

export { ConversationRoom } from "~/.server/messaging/conversation-room";
export { MemberInbox } from "~/.server/messaging/member-inbox";

export default {
  async fetch() {
    return new Response("test worker");
  },
  // The real queue delivers here, as it does to the app's worker.
  async queue(batch) {
    await consumeQueue(batch);
  },
} satisfies ExportedHandler<Env>;
