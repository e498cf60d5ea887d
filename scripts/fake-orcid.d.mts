import type { Server } from "node:http";

export const FAKE_ORCID_CLIENT: { id: string; secret: string };
export const FAKE_ORCID_DEFAULT: { orcid: string; name: string };
export const FAKE_DOI_RECORDS: Record<string, Record<string, unknown>>;
export const ILL_SHAPED_RECORDS: Record<string, unknown>;
export const STAND_IN_FAILURES: string[];
export const SLOW_HOP_MS: number;
export function fakeOrcidVars(base: string): Record<string, string>;
export function startFakeOrcid(options?: { port?: number; slowMs?: number; log?: boolean }): Promise<{
  server: Server;
  url: string;
  vars: Record<string, string>;
}>;
