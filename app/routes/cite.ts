import { data } from "react-router";
import { findContent } from "~/.server/content/content";
import { fundingOf } from "~/.server/content/funding";
import { askedVersion } from "~/.server/content/versions";
import { countReading, readingOf } from "~/.server/stats/readings";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { languageOf } from "~/.server/web/i18n/request-language";
import { agentOf } from "~/.server/web/readings";
import { CITATION_FILES, isCitationFile, itemUrl } from "~/lib/citations";
import type { Route } from "./+types/cite";

/** GET /retrieval/detail/cite?id=N&format=bibtex|ris|csl-json: the item's citation as a file (a plain link). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const id = Number(url.searchParams.get("id"));
  const format = url.searchParams.get("format");
  const item = Number.isInteger(id) && id > 0 && isCitationFile(format) ? await findContent(id, user.id) : null;
  const version = item ? await askedVersion(item, url.searchParams.get("version")) : undefined;
  if (!item || version === undefined || !isCitationFile(format)) throw data(null, { status: 404 });
  const { asVersion, citeItem } = await import("~/.server/content/citation");
  const cited = { ...(version ? asVersion(item, version) : item), funding: await fundingOf(item.id) };
  countReading(readingOf("export", item, user, agentOf(request), Date.now()), afterAnswer(context));
  const file = CITATION_FILES[format];
  return new Response(citeItem(cited, itemUrl(url.origin, id, version?.number), [format], languageOf(request))[format], {
    headers: {
      "Content-Type": `${file.type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="research-commons-${id}${version ? `-v${version.number}` : ""}.${file.extension}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
