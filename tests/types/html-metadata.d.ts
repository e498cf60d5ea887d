// html-metadata (Wikimedia's) ships no types: what the tests read of it.
declare module "html-metadata" {
  type Values = Record<string, unknown>;
  interface Metadata {
    general?: Values;
    highwirePress?: Values;
    jsonLd?: Values | Values[];
    openGraph?: Values;
    twitter?: Values;
    [format: string]: unknown;
  }
  /** Fetches a page and parses every kind of metadata it knows from its head. */
  export default function htmlMetadata(url: string): Promise<Metadata>;
}
