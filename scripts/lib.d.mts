// Types for what the TypeScript tests take from lib.mjs.

/** A loopback port free now (and `following` ports after it). */
export function freePort(following?: number): Promise<number>;
