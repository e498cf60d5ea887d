import { env } from "~/.server/bindings";

// Reads a page makes that do not depend on each other go to D1 together, in one batch (one round
// trip; decision 0036). A service offers such a read as its statements and how to decode their
// results; `readTogether` sends several services' reads at once and hands each its own results.

export interface Read<T> {
  statements: D1PreparedStatement[];
  decode: (results: D1Result[]) => T;
}

type Values<R extends readonly Read<unknown>[]> = { [K in keyof R]: R[K] extends Read<infer T> ? T : never };

export async function readTogether<const R extends readonly Read<unknown>[]>(reads: R): Promise<Values<R>> {
  const results = await env.DB.batch(reads.flatMap((read) => read.statements));
  let at = 0;
  return reads.map((read) => {
    const own = results.slice(at, at + read.statements.length);
    at += read.statements.length;
    return read.decode(own);
  }) as Values<R>;
}

/** One read on its own. */
export const readOne = async <T>(read: Read<T>): Promise<T> => (await readTogether([read] as const))[0];

/** A read that needs nothing from D1 (a value already known). */
export const known = <T>(value: T): Read<T> => ({ statements: [], decode: () => value });
