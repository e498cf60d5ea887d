import type { ContentItem } from "~/.server/content/content";
import type { Funding } from "~/.server/content/funding";
import type { ItemText } from "~/.server/content/item-texts";
import { licenseInfo } from "~/.server/content/licenses";
import { translator } from "~/.server/i18n/translate";
import { escapeXml } from "~/.server/web/xml";
import { authorsOf } from "~/lib/authors";
import { sdgKey } from "~/lib/sdg";
import { openFileUrl } from "../records/signposts";

// An open record as simple Dublin Core (oai_dc), the format every OAI-PMH harvester reads, in the
// ways BASE, CORE and OpenAIRE read it: creators as written, the goal and keywords as subjects,
// DCMI types, and identifiers that resolve (the record, its open file, its DOI).

const element = (name: string, text: string, lang?: string | null) =>
  `<dc:${name}${lang ? ` xml:lang="${escapeXml(lang)}"` : ""}>${escapeXml(text)}</dc:${name}>`;

/** The record's Dublin Core: the original title and abstract first, then its owner's translations, each in its language. */
export function dublinCore(item: ContentItem, home: string, texts: readonly ItemText[], funding: readonly Funding[] = []) {
  const english = translator("en");
  const license = licenseInfo(item.license);
  const file = openFileUrl(item, home);
  const date = item.published_year ? String(item.published_year) : new Date(item.created_at).toISOString().slice(0, 10);
  const keywords = item.keywords
    .split(/[,、，]/)
    .map((keyword) => keyword.trim())
    .filter(Boolean);
  return [
    '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">',
    element("title", item.title, item.language),
    ...texts.map((text) => element("title", text.title, text.lang)),
    ...authorsOf(item).map((author) => element("creator", author.name)),
    // Funders as contributors, and their awards' addresses as relations, as OpenAIRE's guidelines read simple DC (decision 0052).
    ...funding.map((f) => element("contributor", f.funder_name)),
    element("subject", `SDG ${item.sdg}: ${english(sdgKey(item.sdg))}`),
    ...keywords.map((keyword) => element("subject", keyword)),
    element("description", item.summary, item.language),
    ...texts.map((text) => element("description", text.summary, text.lang)),
    element("date", date),
    element("type", item.kind === "document" ? "Text" : "MovingImage"),
    element("format", item.kind === "document" ? "application/pdf" : "video/mp4"),
    element("identifier", home),
    ...(file ? [element("identifier", file)] : []),
    ...(item.doi ? [element("identifier", `https://doi.org/${item.doi}`)] : []),
    ...(item.language ? [element("language", item.language)] : []),
    ...funding.flatMap((f) => (f.award_uri ? [element("relation", f.award_uri)] : [])),
    element("rights", license?.url ?? license?.name ?? english(license ? "content.allRightsReserved" : "content.licenseNotSpecified")),
    "</oai_dc:dc>",
  ].join("");
}
