import type { Served } from "~/.server/stats/readings";

// What a reading (stats/readings.ts) takes from a request, read here so the domain takes values.

/** The reader's browser, by which a reading tells a robot. */
export const agentOf = (request: Request) => request.headers.get("User-Agent");

/** What a file's request asked and got, for its download's reading. */
export const servedOf = (request: Request, response: Response): Served => ({
  agent: agentOf(request),
  range: request.headers.get("Range"),
  status: response.status,
});
