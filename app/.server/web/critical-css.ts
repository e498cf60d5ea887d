// The CSS a page carries is the part of the app's stylesheet its own markup uses (docs/decisions/0046):
// the whole sheet is about 7 KB gzip of every page, the part a page uses about half. A rule is kept
// when every class and element its selector surely needs appears somewhere in the page, markup or
// module alike (a module's class and tag names are strings in its code); at-rules that hold no
// selectors (fonts, keyframes) are kept whole, and custom properties only where something left reads
// them. A page React hydrates keeps the whole sheet: it may render anything.

interface StyleRule {
  selectors: { text: string; needs: string[] }[];
  body: string;
}
interface GroupRule {
  prelude: string;
  rules: Rule[];
}
type Rule = StyleRule | GroupRule | string;

/** The index of the `}` that closes the block opened at `open`, past quoted strings and comments. */
function closing(css: string, open: number): number {
  let depth = 0;
  for (let at = open; at < css.length; at++) {
    const char = css[at];
    if (char === '"' || char === "'") at = css.indexOf(char, at + 1);
    else if (char === "/" && css[at + 1] === "*") {
      const end = css.indexOf("*/", at + 2);
      at = end < 0 ? -1 : end + 1;
    } else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return at;
    if (at < 0) break; // an unclosed string or comment: the rest is its block
  }
  return css.length;
}

/** Top-level commas only: `:is(a, b)` is one selector's part. */
function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < list.length; at++) {
    const char = list[at];
    if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (char === "," && depth === 0) {
      parts.push(list.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

const unescapeCss = (name: string) =>
  name.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ""),
  );

/**
 * What the selector needs for sure, classes and element names alike: those outside parentheses
 * (inside :is(), :where() or :not() one may be one of several, or must be absent) and outside an
 * attribute's brackets, so a rule is never dropped that could match.
 */
function needsOf(selector: string): string[] {
  // Escaped characters are a class name's own (`.max-md\:\[\@media\(scripting\:enabled\)\]\:hidden`):
  // set aside while the selector's parentheses go.
  const escapes: string[] = [];
  let needed = selector.replace(/\\(?:[0-9a-fA-F]{1,6} ?|.)/g, (escaped) => `\u0000${escapes.push(escaped) - 1}\u0001`);
  while (/\([^()]*\)/.test(needed)) needed = needed.replace(/\([^()]*\)/g, "");
  needed = needed.replace(/\[[^[\]]*\]/g, "");
  // An element's name starts the selector or follows a combinator (`sub`, `select optgroup`).
  const elements = [...needed.matchAll(/(?:^|[\s>+~])([a-zA-Z][\w-]*)/g)].map((match) => match[1] ?? "");
  needed = needed.replace(/\u0000(\d+)\u0001/g, (_, index: string) => escapes[Number(index)] ?? "");
  const classes = [...needed.matchAll(/\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+)/g)].map((match) => unescapeCss(match[1] ?? ""));
  return [...elements, ...classes];
}

const GROUPS = /^@(media|layer|supports|container)\b/;

function parse(css: string): Rule[] {
  const rules: Rule[] = [];
  let at = 0;
  while (at < css.length) {
    const open = css.indexOf("{", at);
    const semicolon = css.indexOf(";", at);
    // A statement at-rule (`@layer a, b;`, `@import …;`) has no block.
    if (semicolon >= 0 && (open < 0 || semicolon < open)) {
      rules.push(css.slice(at, semicolon + 1));
      at = semicolon + 1;
      continue;
    }
    if (open < 0) break;
    const end = closing(css, open);
    const prelude = css.slice(at, open).trim();
    const body = css.slice(open + 1, end);
    if (GROUPS.test(prelude)) rules.push({ prelude, rules: parse(body) });
    else if (prelude.startsWith("@")) rules.push(`${prelude}{${body}}`);
    else rules.push({ selectors: splitSelectors(prelude).map((text) => ({ text, needs: needsOf(text) })), body });
    at = end + 1;
  }
  return rules;
}

function write(rules: Rule[], used: Set<string>): string {
  let out = "";
  for (const rule of rules) {
    if (typeof rule === "string") out += rule;
    else if ("prelude" in rule) {
      const inner = write(rule.rules, used);
      if (inner) out += `${rule.prelude}{${inner}}`;
    } else {
      const kept = rule.selectors.filter((selector) => selector.needs.every((name) => used.has(name)));
      if (kept.length) out += `${kept.map((selector) => selector.text).join(",")}{${rule.body}}`;
    }
  }
  return out;
}

let parsed: { css: string; rules: Rule[] } | null = null;

const ROOT = /:root,:host\{([^{}]*)\}/;
const PROPERTY = /@property (--[\w-]+)\{[^{}]*\}/g;
const readIn = (text: string) => new Set([...text.matchAll(/var\((--[\w-]+)/g)].map((match) => match[1]));

/**
 * Without the custom properties nothing left reads: the theme declares every one the app uses, and
 * `@property` registers every one a utility may set. A theme property read only by another one that
 * is kept stays too. The page is read once (this runs on every page's answer).
 */
function withoutUnreadProperties(css: string, html: string): string {
  const root = ROOT.exec(css);
  const rest = root ? css.slice(0, root.index) + css.slice(root.index + root[0].length) : css;
  const read = readIn(rest + html);
  const declarations = root ? (root[1] ?? "").split(";").filter(Boolean) : [];
  const nameOf = (declaration: string) => declaration.slice(0, declaration.indexOf(":"));
  for (let grew = true; grew; ) {
    grew = false;
    for (const declaration of declarations.filter((d) => read.has(nameOf(d)))) {
      for (const name of readIn(declaration)) {
        if (!read.has(name)) {
          read.add(name);
          grew = true;
        }
      }
    }
  }
  const themed = root
    ? `${css.slice(0, root.index)}:root,:host{${declarations.filter((d) => read.has(nameOf(d))).join(";")}}${css.slice(root.index + root[0].length)}`
    : css;
  return themed.replace(PROPERTY, (rule, name: string) => (read.has(name) ? rule : ""));
}

/** The rules of `css` that the page `html` can use (the sheet is read once per isolate). */
export function cssFor(css: string, html: string): string {
  if (parsed?.css !== css) parsed = { css, rules: parse(css) };
  return withoutUnreadProperties(write(parsed.rules, new Set(html.split(/[\s"'`<>=]+/))), html);
}

const STYLE = /(<style id="critical-css"[^>]*>)([\s\S]*?)(<\/style>)/;

/** The page with only the CSS it uses in its critical style, unless React hydrates it. */
export function withPageCss(page: string): string {
  if (/<html[^>]* data-hydrate=""/.test(page)) return page;
  const style = STYLE.exec(page);
  if (!style) return page;
  const [whole, open = "", css = "", close = ""] = style;
  const before = page.slice(0, style.index);
  const after = page.slice(style.index + whole.length);
  return `${before}${open}${cssFor(css, before + after)}${close}${after}`;
}
