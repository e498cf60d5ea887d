import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: Record<"core" | "stats" | "text", D1Migration[]>;
      /** The stand-in ORCID's settings (vitest.config.ts). */
      ORCID_URL: string;
      DOI_RESOLVER_URL: string;
    }
  }
}
