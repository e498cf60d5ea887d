import { describe, expect, it } from "vitest";
import { canonicalLanguage, interfaceLanguage, languageWarning, looksUnlike } from "~/lib/item-languages";

// The language an item is written in (decision 0050): BCP 47 tags as Intl reads them, and the
// warning an owner gets when the text plainly is not in the language chosen.

describe("an item's language", () => {
  it("is a BCP 47 tag, written as the standard writes it, or refused", () => {
    expect(["ja", "zh-hant", "PT-br", " en "].map(canonicalLanguage)).toEqual(["ja", "zh-Hant", "pt-BR", "en"]);
    expect(["", "not a tag", "e", "en_US_x"].map(canonicalLanguage)).toEqual([null, null, null, null]);
    expect(["zh-Hant", "ja-JP", "pt", null].map(interfaceLanguage)).toEqual(["zh", "ja", null, null]);
  });

  it("warns when the text's script is not the language's, and stays quiet when it cannot tell", () => {
    const japanese = "家庭用浄水器による安全な飲み水の研究。十二の町で測定しました。";
    const chinese = "家用净水器与清洁饮水研究。我们在十二个城镇进行了测量和比较。";
    const english = "What we measured in twelve small towns, and which filters worked.";
    expect(looksUnlike(japanese, "ja")).toBe(false);
    expect(looksUnlike(chinese, "zh-Hans")).toBe(false);
    expect(looksUnlike(english, "en")).toBe(false);
    expect(looksUnlike(english, "ja")).toBe(true);
    expect(looksUnlike(chinese, "ja")).toBe(true);
    expect(looksUnlike(japanese, "zh")).toBe(true);
    expect(looksUnlike(japanese, "en")).toBe(true);
    // Too short to tell, or a script the check does not know.
    expect(looksUnlike("H2O", "ja")).toBe(false);
    expect(looksUnlike(english, "sw")).toBe(false);
    expect(languageWarning({ title: "Water", summary: english, language: "ja" })).toBe("content.languageMismatch|language=languages.ja");
    expect(languageWarning({ title: "Water", summary: english, language: "en-GB" })).toBeNull();
    expect(languageWarning({ title: "Water", summary: english, language: undefined })).toBeNull();
  });
});
