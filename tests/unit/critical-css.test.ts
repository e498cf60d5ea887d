import { describe, expect, it } from "vitest";
import { cssFor, withPageCss } from "~/.server/web/critical-css";

// A page's critical CSS is the part of the sheet its own markup and modules use (decision 0046).

const SHEET = [
  "@layer theme, base, components, utilities;",
  "@layer theme{:root,:host{--color-red-50:#fef2f2;--color-red-500:#ef4444;--font-sans:system-ui;--default-font-family:var(--font-sans);--color-brand:#1d4ed8;--spacing:.25rem}}",
  '@property --tw-shadow{syntax:"*";inherits:false}@property --tw-ring{syntax:"*";inherits:false}',
  "@layer base{html{font-family:var(--default-font-family)}}",
  ".text-red-500{color:var(--color-red-500)}.shadow{--tw-shadow:0 1px #000;box-shadow:var(--tw-shadow)}",
  "@layer base{*,:after{box-sizing:border-box}[hidden]:where(:not([hidden=until-found])){display:none!important}}",
  "@layer base{sub,sup{font-size:75%}table{border-collapse:collapse}:where(select:is([multiple])) optgroup{font-weight:bolder}}",
  '[data-state="open closed"] .menu{display:block}',
  "@layer utilities{.flex{display:flex}.grid{display:grid}.h-\\[70vh\\]{height:70vh}",
  ".max-sm\\:sr-only{@media (width<40rem){position:absolute}}",
  ".hover\\:bg-slate-100{&:hover{@media (hover:hover){background-color:#f1f5f9}}}",
  ".\\32 xl\\:grid-cols-4{grid-template-columns:repeat(4,1fr)}",
  "@media not all and (width>=48rem){@media (scripting:enabled){.max-md\\:\\[\\@media\\(scripting\\:enabled\\)\\]\\:hidden{display:none}}}",
  ".space-y-2{:where(&>:not(:last-child)){margin-block-start:.5rem}}",
  ".peer:not(.open)~.drawer{opacity:0}}",
  "@media (width>=62rem){.app-wrapper[data-sidebar=closed] .menu-label{display:none}.unused{color:red}}",
  '@keyframes fade{to{opacity:0}}.toast{animation:fade 5s;content:"{"}',
  ":is(.a, .b) .c{color:blue}",
].join("");

describe("the CSS a page carries", () => {
  const kept = (html: string) => cssFor(SHEET, html);

  it("keeps a rule whose classes are all in the page, escaped names read as written", () => {
    const css = kept(
      '<div class="flex h-[70vh] max-sm:sr-only hover:bg-slate-100 2xl:grid-cols-4 space-y-2 max-md:[@media(scripting:enabled)]:hidden">',
    );
    for (const rule of [
      ".flex{",
      ".h-\\[70vh\\]{",
      ".max-sm\\:sr-only{",
      ".hover\\:bg-slate-100{",
      ".\\32 xl\\:grid-cols-4{",
      ".space-y-2{",
      // Parentheses in a class name are its own, not a selector's :is(…).
      ".max-md\\:\\[\\@media\\(scripting\\:enabled\\)\\]\\:hidden{",
    ]) {
      expect(css).toContain(rule);
    }
    expect(css).not.toContain(".grid{");
  });

  it("keeps what needs no class, the statements and the keyframes, and drops empty groups", () => {
    const css = kept("<p>");
    expect(css).toContain("@layer theme, base, components, utilities;");
    expect(css).toContain("[hidden]:where(:not([hidden=until-found]))");
    expect(css).toContain("@keyframes fade{to{opacity:0}}");
    expect(css).not.toContain("@media (width>=62rem)");
  });

  it("needs every class of a selector outside parentheses (under :not() or :is() one may be absent)", () => {
    expect(kept('<div class="app-wrapper"><span class="menu-label">')).toContain(".app-wrapper[data-sidebar=closed] .menu-label{");
    expect(kept('<div class="app-wrapper">')).not.toContain(".menu-label");
    expect(kept('<i class="peer drawer">')).toContain(".peer:not(.open)~.drawer{");
    expect(kept('<i class="a c">')).toContain(":is(.a, .b) .c{");
    expect(kept('<i class="a">')).not.toContain(":is(.a, .b) .c{");
    // A brace in a string does not end the rule.
    expect(kept('<i class="toast">')).toContain('.toast{animation:fade 5s;content:"{"}');
  });

  it("keeps the custom properties something left reads, through another one too, and drops the rest", () => {
    const css = kept('<html><p class="text-red-500" style="color:var(--color-brand)">');
    for (const read of ["--color-red-500:", "--default-font-family:", "--font-sans:", "--color-brand:"]) expect(css).toContain(read);
    for (const unread of ["--color-red-50:", "--spacing:", "@property --tw-shadow", "@property --tw-ring"])
      expect(css).not.toContain(unread);
    expect(kept('<p class="shadow">')).toContain("@property --tw-shadow{");
  });

  it("needs an element a selector names outside parentheses and brackets, in the markup or a module's code", () => {
    expect(kept("<p>x<sub>2</sub>")).toContain("sub{font-size:75%}");
    expect(kept("<p><sup>2</sup><sub>2</sub>")).toContain("sub,sup{");
    expect(kept("<p>")).not.toContain("font-size:75%");
    expect(kept("<select><optgroup>")).toContain("optgroup{");
    expect(kept("<select>")).not.toContain("optgroup{");
    expect(kept('<script type="module">document.createElement("table")</script>')).toContain("table{");
    expect(kept("<p>")).not.toContain("table{");
    // A word in an attribute's value is no element.
    expect(kept('<i class="menu">')).toContain(".menu{");
  });

  it("counts a class a module names in its code", () => {
    expect(kept('<script type="module">x.className="grid gap-1"</script>')).toContain(".grid{");
  });

  it("leaves the whole sheet to a page React hydrates", () => {
    const page = (hydrate: boolean) =>
      `<html lang="en"${hydrate ? ' data-hydrate=""' : ""}><head><style id="critical-css" nonce="n">${SHEET}</style></head><body class="flex"></body></html>`;
    expect(withPageCss(page(true))).toBe(page(true));
    const plain = withPageCss(page(false));
    expect(plain).toContain(".flex{display:flex}");
    expect(plain).not.toContain(".grid{");
    expect(plain.length).toBeLessThan(page(false).length);
  });
});
