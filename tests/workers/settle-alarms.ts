import { listDurableObjectIds, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll } from "vitest";

// A conversation checks its members' inboxes a few seconds after a message (a Durable Object alarm).
// Left to fire on its own, it can run after the file that armed it has ended, in a module runner
// that is closing ("Closing rpc while resolve was pending", an error that fails the run). So each
// file runs the alarms still armed before it ends.
afterAll(async () => {
  for (const id of await listDurableObjectIds(env.CONVERSATIONS)) await runDurableObjectAlarm(env.CONVERSATIONS.get(id));
});
