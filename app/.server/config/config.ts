import { env } from "cloudflare:workers";
import { type Config, type ConfigProblem, type ConfigResult, parseConfig } from "./parse";
import { LOOPBACK } from "./schema";

// The checked configuration. The worker entry calls `servingProblems()` before serving; everything
// else reads `config()`, which can then no longer fail.

export type { Config, ConfigProblem };

let checked: { source: object; result: ConfigResult } | undefined;

function current(): ConfigResult {
  // Bindings do not change within an isolate; tests that swap them get a fresh check.
  if (checked?.source !== env) checked = { source: env, result: parseConfig(env as unknown as Record<string, unknown>, __LOCAL_BUILD__) };
  return checked.result;
}

/** What stops this worker from serving, if anything (empty when it may serve). */
export function configProblems(): ConfigProblem[] {
  const result = current();
  return result.ok ? [] : result.problems;
}

/**
 * What stops this worker from serving this request: a configuration problem, or a local build asked
 * for a public host (a local build deployed by mistake serves nothing rather than run as local).
 */
export function servingProblems(request: Request): ConfigProblem[] {
  const problems = configProblems();
  if (__LOCAL_BUILD__ && !LOOPBACK.has(new URL(request.url).hostname)) {
    return [
      ...problems,
      {
        name: "CLOUDFLARE_ENV",
        problem: "unset at build time: this local build serves loopback addresses only (npm run deploy:production)",
      },
    ];
  }
  return problems;
}

/** The checked configuration. Only called once the entry has made sure there are no problems. */
export function config(): Config {
  const result = current();
  if (!result.ok) throw new Error(`configuration invalid: ${result.problems.map((p) => p.name).join(", ")}`);
  return result.config;
}
