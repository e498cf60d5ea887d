import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CitationMeta } from "~/components/cite-item";

// The Highwire Press tags an item's page carries, as Google Scholar's inclusion rules read them.

const item = {
  title: "Rainfall in twelve towns",
  owner_name: "Clean Water Lab",
  authors: [],
  created_at: Date.UTC(2026, 10, 20, 9, 0),
  doi: null,
  published_year: 2019 as number | null,
};
const tag = (name: string) => document.head.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? null;

describe("the citation tags", () => {
  it("date the work by the year it was published, and the upload by its own day", () => {
    render(<CitationMeta item={item} pdfUrl={null} />);
    expect([tag("citation_publication_date"), tag("citation_online_date")]).toEqual(["2019", "2026/11/20"]);
  });

  it("name the original's language when the owner gave it", () => {
    render(<CitationMeta item={{ ...item, language: "ja" }} pdfUrl={null} />);
    expect(tag("citation_language")).toBe("ja");
  });

  it("fall back to the upload's day when no year was given", () => {
    render(<CitationMeta item={{ ...item, published_year: null }} pdfUrl={null} />);
    expect([tag("citation_publication_date"), tag("citation_online_date")]).toEqual(["2026/11/20", "2026/11/20"]);
  });
});

describe("the authors a work is cited by", () => {
  const authors = () => [...document.head.querySelectorAll('meta[name="citation_author"]')].map((meta) => meta.getAttribute("content"));
  const coAuthors = [
    { name: "Aiko Tanaka", orcid: null },
    { name: "Grace Hopper", orcid: null },
  ];

  it("are the uploader and then the co-authors", () => {
    render(<CitationMeta item={{ ...item, authors: coAuthors }} pdfUrl={null} />);
    expect(authors()).toEqual(["Clean Water Lab", "Aiko Tanaka", "Grace Hopper"]);
  });

  it("are the co-authors only when the uploader put the work up for them", () => {
    render(<CitationMeta item={{ ...item, authors: coAuthors, on_behalf: 1 }} pdfUrl={null} />);
    expect(authors()).toEqual(["Aiko Tanaka", "Grace Hopper"]);
  });
});
