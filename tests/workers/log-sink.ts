import { beforeEach } from "vitest";

// Failure paths log one structured JSON line each (app/.server/observability/log.ts). In tests those
// lines are expected and would bury real failures, so they go to this sink instead of the output:
// a test asserts on them with `logged(event)`, and a failing test prints the ones it produced.

// Kept on the global object and installed once: files that share an isolate run this setup each.
const sink = globalThis as { structuredLogLines?: Array<Record<string, unknown>> };
const installed = sink.structuredLogLines !== undefined;
sink.structuredLogLines ??= [];
const lines = sink.structuredLogLines;
const print = console.log.bind(console);

function capture(method: "log" | "warn" | "error") {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    const [first] = args;
    if (args.length === 1 && typeof first === "string" && first.startsWith('{"level"')) {
      try {
        lines.push(JSON.parse(first) as Record<string, unknown>);
        return;
      } catch {}
    }
    original(...args);
  };
}
if (!installed) for (const method of ["log", "warn", "error"] as const) capture(method);

/** The structured log lines written so far, optionally one event's. */
export const logged = (event?: string) => lines.filter((line) => !event || line.event === event);

beforeEach(({ onTestFailed }) => {
  const from = lines.length;
  onTestFailed(() => {
    const mine = lines.slice(from);
    if (mine.length) print(`structured log lines of this test:\n${mine.map((line) => JSON.stringify(line)).join("\n")}`);
  });
});
