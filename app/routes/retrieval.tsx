import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useSearchParams } from "react-router";
import { saveSearch } from "~/.server/notifications/new-items";
import { attempt, Refused } from "~/.server/refused";
import { organisationName, organisationsNamed } from "~/.server/search/organisations";
import {
  type ContentHit,
  clearSearchHistory,
  longTerms,
  type MemberHit,
  rememberSearch,
  searchHistory,
  searchPage,
  searchQuerySchema,
  withSearch,
} from "~/.server/search/search";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { isOwnNavigation } from "~/.server/web/security/same-origin";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { GoalSelect } from "~/components/content-fields";
import { PageLinks } from "~/components/load-more";
import { OrcidBadge } from "~/components/orcid";
import { PageTitle } from "~/components/page-title";
import { Button } from "~/components/ui/button";
import { clockTime, languageName } from "~/lib/captions";
import { highlightParts, unmarked } from "~/lib/highlight";
import { ALL_RIGHTS_RESERVED, COMMON_LICENSES } from "~/lib/licenses";
import type { PageHandle } from "~/lib/page-handle";
import { sdgKey } from "~/lib/sdg";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/retrieval";

// The list grows as its end scrolls into view (docs/decisions/0046).
export const handle: PageHandle = { modules: ["lists"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const query = searchQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const now = Date.now();
  // The search and the history are read side by side; both are waited for, so neither outlives the page.
  const narrowedTo = query.tab === "members" ? query.org : query.funder;
  const [found, stored, organisations, narrowed] = await Promise.allSettled([
    searchPage(query, user.id, now),
    searchHistory(user.id),
    // The organisations the words name, with ways to their research and members (decision 0052).
    query.page === 1 ? organisationsNamed(longTerms(query.q)) : [],
    narrowedTo ? organisationName(narrowedTo, user.id) : null,
  ]);
  if (found.status === "rejected") throw found.reason;
  if (organisations.status === "rejected") throw organisations.reason;
  if (narrowed.status === "rejected") throw narrowed.reason;
  if (stored.status === "rejected") console.error("search history", stored.reason);
  // Only the member's own searches are remembered, never one another site's link made for them; the
  // write follows the answer (decision 0036), and the history shown already has the search.
  const remember = Boolean(query.q) && query.page === 1 && isOwnNavigation(request);
  if (remember) afterAnswer(context)(rememberSearch(user.id, query.q, now).catch((error) => console.error("search history", error)));
  const history = stored.status === "fulfilled" ? (remember ? withSearch(stored.value, query.q) : stored.value) : null;
  const results = found.value;
  return { ...results, query, history, organisations: organisations.value, narrowed: narrowed.value };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  if (form.get("intent") === "save-search") {
    // Back to the same search, told whether it was saved (decision 0040: its new items notify).
    const query = searchQuerySchema.parse(Object.fromEntries(form));
    const back = `/retrieval?${new URLSearchParams({ q: query.q, tab: query.tab, ...(query.sdg ? { sdg: String(query.sdg) } : {}) })}`;
    const kind = query.tab === "videos" ? "video" : "document";
    const saved = await attempt(() => saveSearch(user.id, { q: query.q, kind, sdg: query.sdg ?? null }, Date.now()));
    return saved instanceof Refused ? refusalNotice(request, back, saved) : flashRedirect(request, back, "success", "notify.searchSaved");
  }
  await clearSearchHistory(user.id);
  return redirect("/retrieval", { status: 303 });
}

function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightParts(text).map((part, i) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
          <mark key={i} className="rounded bg-yellow-100 px-0.5">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

const TABS = ["documents", "videos", "members"] as const;

/** A hit found in a document's text opens it at the page; one in a video's captions, at the second in that language. */
const passageQuery = (passage: { page: number } | { time: number; lang: string } | null) =>
  !passage ? "" : "page" in passage ? `&page=${passage.page}` : `&t=${passage.time}&lang=${encodeURIComponent(passage.lang)}`;
const select = "h-9 rounded-md border border-slate-300 bg-white px-2 text-sm";

/** Search across documents, videos and members: a GET form, so results are links that work anywhere. */
export default function Retrieval({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const { query, history, narrowed } = loaderData;
  const content = loaderData.items.filter((hit): hit is ContentHit => "kind" in hit);
  const members = loaderData.items.filter((hit): hit is MemberHit => !("kind" in hit));
  const tabUrl = (tab: string) => {
    const copy = new URLSearchParams(params);
    copy.set("tab", tab);
    copy.delete("page");
    return `/retrieval?${copy}`;
  };
  const narrowedBy = query.tab === "members" ? "org" : "funder";
  const widened = new URLSearchParams(params);
  widened.delete(narrowedBy);
  widened.delete("page");
  const listed = Boolean(query.q || narrowed);
  return (
    <>
      <PageTitle titleKey="retrieval" />
      <Form method="get" role="search" className="mb-3 flex flex-wrap gap-2" data-testid="search-form">
        <input type="hidden" name="tab" value={query.tab} />
        {narrowed ? <input type="hidden" name={narrowedBy} value={query[narrowedBy]} /> : null}
        <input
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder={t("search.placeholder")}
          aria-label={t("search.search")}
          className="h-9 min-w-60 flex-1 rounded-md border border-slate-300 bg-white px-3 text-sm"
        />
        {query.tab === "members" ? (
          <select name="type" defaultValue={query.type ?? ""} aria-label={t("auth.accountType")} className={select}>
            <option value="">{t("search.anyType")}</option>
            <option value="1">{t("search.researcher")}</option>
            <option value="2">{t("search.investor")}</option>
          </select>
        ) : (
          <>
            <GoalSelect name="sdg" defaultValue={query.sdg ?? ""} aria-label={t("content.category")} emptyLabel={t("feed.allGoals")} />
            <select name="since" defaultValue={query.since ?? ""} aria-label={t("search.anyTime")} className={select}>
              <option value="">{t("search.anyTime")}</option>
              <option value="week">{t("search.pastWeek")}</option>
              <option value="month">{t("search.pastMonth")}</option>
              <option value="year">{t("search.pastYear")}</option>
            </select>
            <select name="license" defaultValue={query.license ?? ""} aria-label={t("content.license")} className={select}>
              <option value="">{t("search.anyLicense")}</option>
              {COMMON_LICENSES.map((id) => (
                <option key={id} value={id}>
                  {id === ALL_RIGHTS_RESERVED ? t("content.allRightsReserved") : id}
                </option>
              ))}
            </select>
          </>
        )}
        <Button type="submit">{t("search.search")}</Button>
      </Form>
      {query.q && query.tab !== "members" ? (
        <Form method="post" className="mb-3" data-testid="save-search">
          <input type="hidden" name="intent" value="save-search" />
          <input type="hidden" name="q" value={query.q} />
          <input type="hidden" name="tab" value={query.tab} />
          {query.sdg ? <input type="hidden" name="sdg" value={query.sdg} /> : null}
          <Button type="submit" variant="outline" size="sm">
            {t("search.save")}
          </Button>
        </Form>
      ) : null}
      <nav className="mb-4 flex gap-1 border-b border-slate-200" aria-label={t("search.search")}>
        {TABS.map((tab) => (
          <Link
            key={tab}
            to={tabUrl(tab)}
            aria-current={query.tab === tab ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm",
              query.tab === tab ? "border-brand text-brand" : "border-transparent text-slate-600",
            )}
          >
            {t(`search.${tab}`)}
          </Link>
        ))}
      </nav>
      {narrowed ? (
        <p className="mb-3 text-sm" data-testid="search-narrowed">
          <span className="font-medium">{t(narrowedBy === "org" ? "search.membersOf" : "search.fundedBy", { name: narrowed })}</span>
          {" · "}
          <Link to={`/retrieval?${widened}`} className="text-brand underline underline-offset-2">
            {t("search.allResults")}
          </Link>
        </p>
      ) : null}
      {loaderData.organisations.length ? (
        <section className="mb-3 rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="search-organisations">
          <h2 className="mb-1 font-medium">{t("search.organisations")}</h2>
          <ul>
            {loaderData.organisations.map((org) => (
              <li key={org.id}>
                {org.name} ·{" "}
                <Link to={`/retrieval?${new URLSearchParams({ tab: "documents", funder: org.id })}`} className="text-brand underline">
                  {t("search.funded")}
                </Link>{" "}
                ·{" "}
                <Link to={`/retrieval?${new URLSearchParams({ tab: "members", org: org.id })}`} className="text-brand underline">
                  {t("search.itsMembers")}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!listed ? (
        history === null ? (
          <p role="alert" className="text-sm text-red-600">
            {t("notify.loadHistoryError")}
          </p>
        ) : history.length ? (
          <section data-testid="search-history">
            <h2 className="mb-2 text-sm font-medium">{t("search.recent")}</h2>
            <ul className="mb-2 flex flex-wrap gap-2">
              {history.map((past) => (
                <li key={past}>
                  <Link
                    to={`/retrieval?q=${encodeURIComponent(past)}&tab=${query.tab}`}
                    className="rounded-full bg-slate-100 px-3 py-1 text-sm hover:bg-slate-200"
                  >
                    {past}
                  </Link>
                </li>
              ))}
            </ul>
            <Form method="post">
              <Button type="submit" variant="ghost" size="sm">
                {t("search.clear")}
              </Button>
            </Form>
          </section>
        ) : null
      ) : loaderData.items.length === 0 ? (
        <p className="text-slate-600">{t("search.noResults", { q: query.q || narrowed })}</p>
      ) : null}
      {loaderData.partial ? (
        <p
          role="status"
          className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="search-partial"
        >
          {t("search.partial")}
        </p>
      ) : null}
      <ol className="flex flex-col gap-3" data-testid="search-results" data-paged>
        {content.map((hit) => (
          <li key={hit.id} className="rounded-lg border border-slate-200 bg-white p-3">
            <Link
              to={`/retrieval/detail?id=${hit.id}${passageQuery(hit.passage)}`}
              className="font-medium hover:text-brand"
              lang={hit.matched_lang ?? undefined}
            >
              <Highlighted text={hit.title} />
            </Link>
            <p className="mt-1 text-sm text-slate-600" lang={hit.matched_lang ?? undefined}>
              <Highlighted text={hit.snippet} />
            </p>
            {hit.matched_lang ? (
              <p className="mt-1 text-xs text-slate-500" data-testid="matched-language">
                {t("search.matchedIn", { language: languageName(hit.matched_lang, i18n.language) })}
              </p>
            ) : null}
            {hit.passage ? (
              <p className="mt-1 border-l-2 border-slate-300 pl-2 text-sm text-slate-600" data-testid="passage">
                <span className="mr-1 font-medium text-slate-700">
                  {"page" in hit.passage
                    ? t("search.onPage", { page: hit.passage.page })
                    : t("search.atTime", { time: clockTime(hit.passage.time) })}
                </span>
                <Highlighted text={hit.passage.text} />
              </p>
            ) : null}
            <p className="mt-1 text-xs text-slate-500">
              {hit.sdg}. {t(sdgKey(hit.sdg))} · {t("content.by", { name: hit.owner_name })}
            </p>
          </li>
        ))}
        {members.map((hit) => (
          <li key={hit.id} className="rounded-lg border border-slate-200 bg-white p-3">
            <Link to={`/personal?member=${hit.id}`} className="font-medium hover:text-brand">
              <Highlighted text={hit.nick_name} />
            </Link>
            {hit.orcid ? <OrcidBadge orcid={hit.orcid} name={unmarked(hit.nick_name)} /> : null}
            {hit.verified ? (
              <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800" data-testid="verified">
                ✓ {t("verification.verified")}
              </span>
            ) : null}
            <p className="text-xs text-slate-500">
              {hit.account_type === 1 ? t("search.researcher") : t("search.investor")}
              {hit.organisation ? ` · ${hit.organisation}` : ""}
            </p>
          </li>
        ))}
      </ol>
      {listed ? <PageLinks page={query.page} hasMore={loaderData.has_more} /> : null}
    </>
  );
}
