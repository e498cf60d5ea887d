// What an item can be cited as (issue 17): three files for reference managers, two reference styles.

export const CITATION_FORMATS = ["bibtex", "ris", "csl-json", "apa", "harvard"] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];

/** The formats offered as downloads, with their file name extension and media type. */
export const CITATION_FILES = {
  bibtex: { extension: "bib", type: "application/x-bibtex", label: "content.citeBibtex" },
  ris: { extension: "ris", type: "application/x-research-info-systems", label: "content.citeRis" },
  "csl-json": { extension: "json", type: "application/vnd.citationstyles.csl+json", label: "content.citeCsl" },
} as const;
export type CitationFile = keyof typeof CITATION_FILES;

export const isCitationFile = (format: string | null): format is CitationFile => format !== null && Object.hasOwn(CITATION_FILES, format);

/** Where an item's page is, the address its citations give. */
export const itemUrl = (origin: string, id: number, version?: number) =>
  `${origin}/retrieval/detail?id=${id}${version ? `&version=${version}` : ""}`;
