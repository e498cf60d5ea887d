// The parts of citation-js (no types of its own) that app/.server/content/citation.ts uses.
declare module "@citation-js/core" {
  export class Cite {
    constructor(data: unknown);
    format(format: "bibtex" | "ris", options?: { format?: "text" }): string;
    format(format: "bibliography", options: { template: string; format: "text" | "html"; lang: string }): string;
    format(format: "data", options: { format: "object" }): unknown[];
  }
  export const plugins: {
    config: { get(name: "@csl"): { locales: { add(name: string, xml: string): void } } };
  };
}
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-ris";
declare module "@citation-js/plugin-csl";
