// One structured JSON line per event: Workers Logs indexes the fields, `wrangler tail` shows them.
export type LogLevel = "info" | "warn" | "error";

export function logEvent(level: LogLevel, event: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** A short description of a thrown value, for a log line. */
export function describeError(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack?.slice(0, 2000) };
  return { name: "NonError", message: String(error).slice(0, 500) };
}
