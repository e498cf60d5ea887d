import { describe, expect, it } from "vitest";
import { authorsText, doiUrl, normalizeDoi, normalizeOrcid, parseAuthors } from "~/lib/identifiers";

describe("DOIs", () => {
  it("are kept bare and in lower case, however they were pasted", () => {
    expect(normalizeDoi("10.1000/XYZ123")).toBe("10.1000/xyz123");
    expect(normalizeDoi(" doi:10.1038/nphys1170 ")).toBe("10.1038/nphys1170");
    expect(normalizeDoi("https://doi.org/10.1002/(SICI)1097-4636(199706)35:4<439::AID-JBM4>3.0.CO;2-D")).toBe(
      "10.1002/(sici)1097-4636(199706)35:4<439::aid-jbm4>3.0.co;2-d",
    );
    expect(normalizeDoi("http://dx.doi.org/10.5555/12345678")).toBe("10.5555/12345678");
    expect(normalizeDoi("10.1000.10/abc")).toBe("10.1000.10/abc");
  });

  it("link to the resolver with each part escaped", () => {
    expect(doiUrl("10.1000/a#b?c")).toBe("https://doi.org/10.1000/a%23b%3Fc");
    expect(doiUrl("10.1000/x/y")).toBe("https://doi.org/10.1000/x/y");
  });

  it("are refused when they are not DOIs", () => {
    for (const bad of ["", "10.1/abc", "11.1000/abc", "10.1000/", "10.1000/a b", "https://example.org/10.1000/abc", "doi 10.1000"]) {
      expect(normalizeDoi(bad), bad).toBeNull();
    }
  });

  it("are refused with a part a link would resolve away, or a lone surrogate; other dots stay", () => {
    for (const bad of [
      "10.5555/../../oauth/jwks",
      "10.5555/./x",
      "10.5555/x/..",
      "10.5555/%2e%2e/x",
      "10.5555/.%2E/x",
      "https://doi.org/10.5555/a/../b",
      "10.5555/\uD800x",
      "10.5555/x\uDC00",
    ]) {
      expect(normalizeDoi(bad), bad).toBeNull();
    }
    expect(normalizeDoi("10.5555/a..b/...")).toBe("10.5555/a..b/...");
    expect(normalizeDoi("10.5555/.hidden")).toBe("10.5555/.hidden");
    expect(normalizeDoi("10.5555/\u{1F30A}")).toBe("10.5555/\u{1F30A}");
  });
});

describe("ORCID iDs", () => {
  it("pass when their check digit is right, X included, and are written with hyphens", () => {
    expect(normalizeOrcid("0000-0002-1825-0097")).toBe("0000-0002-1825-0097");
    expect(normalizeOrcid("https://orcid.org/0000-0001-5109-3700")).toBe("0000-0001-5109-3700");
    expect(normalizeOrcid("000000021694233x")).toBe("0000-0002-1694-233X");
  });

  it("fail on any one wrong character, or the wrong form", () => {
    for (const bad of [
      "0000-0002-1825-0098",
      "0000-0002-1825-009",
      "0000-0002-1825-00970",
      "0000-0001-5109-3701",
      "0000-0002-1694-2339",
      "abcd-0002-1825-0097",
    ]) {
      expect(normalizeOrcid(bad), bad).toBeNull();
    }
  });
});

describe("the co-authors field", () => {
  it("reads one author per line, with an optional ORCID iD after the last comma", () => {
    const parsed = parseAuthors("Noor Haddad, 0000-0002-1825-0097\n\n  Rivera, Sam  \n田中 愛子, https://orcid.org/0000-0001-5109-3700\n");
    expect(parsed).toEqual({
      authors: [
        { name: "Noor Haddad", orcid: "0000-0002-1825-0097" },
        { name: "Rivera, Sam", orcid: null },
        { name: "田中 愛子", orcid: "0000-0001-5109-3700" },
      ],
    });
    if ("authors" in parsed) expect(parseAuthors(authorsText(parsed.authors))).toEqual(parsed);
  });

  it("names the line whose ORCID iD is wrong or that has no name", () => {
    expect(parseAuthors("A, 0000-0002-1825-0097\nB, 0000-0002-1825-0098")).toEqual({ badLine: 2 });
    expect(parseAuthors(", 0000-0002-1825-0097")).toEqual({ badLine: 1 });
  });
});
