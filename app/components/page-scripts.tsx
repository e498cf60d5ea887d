import { useDocument } from "~/document-context";
import type { EnhanceModule } from "~/lib/page-handle";

// The script a page carries besides React's (docs/decisions/0046): its small modules, and the
// Speculation Rules that let the browser fetch a page ahead.

/**
 * A small module (docs/decisions/0046), written into the page by the server: no request, and on a slow
 * network no round trip before the page works. A page that hydrates reuses what is already there.
 */
export function PageModule({ name }: { name: EnhanceModule }) {
  const { nonce, modules } = useDocument();
  const id = `module-${name}`;
  const code = modules?.[name] ?? (typeof document === "undefined" ? "" : (document.getElementById(id)?.textContent ?? ""));
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's modules, never member input
  return <script type="module" id={id} nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: code }} />;
}

/**
 * Links the browser may fetch while the pointer rests on them (Speculation Rules, "moderate"; in
 * Chromium): measured, it cut a returning member's moves by a third to a half (docs/decisions/0046). Not
 * what is no page (files, exports, the API) or changes something when opened (logout, opening a
 * notification, joining a meeting, leaving for ORCID). A prefetch records nothing (isPrefetch); the
 * shell module makes it a visit when the page is opened.
 */
const NO_PREFETCH = [
  "/logout",
  "/redirect/",
  "/files/",
  "/uploads",
  "/api/",
  "/dev/",
  "/auth/",
  "/shell/",
  "/personal/export",
  "/personal/stats/csv",
  "/personal/notifications/open",
  "/retrieval/detail/cite",
  "/liveStreaming/join",
];
const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { href_matches: "/*" },
          { not: { selector_matches: [...NO_PREFETCH.map((path) => `a[href^="${path}"]`), "a[download]", "a[target]"].join(", ") } },
        ],
      },
      eagerness: "moderate",
    },
  ],
});

export function SpeculationRules() {
  const { nonce } = useDocument();
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours
  return <script type="speculationrules" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />;
}
