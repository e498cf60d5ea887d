import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import { addFunding, fundingOf, removeFunding } from "~/.server/content/funding";
import { registrySearch } from "~/.server/members/ror";
import { attempt, Refused } from "~/.server/refused";
import { searchMembers, searchQuerySchema } from "~/.server/search/search";
import { requireUser } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { OrganisationLabel, RegistrySearch } from "~/components/registry-search";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { unmarked } from "~/lib/highlight";
import { isLanguage } from "~/lib/i18n";
import { FUNDER_NAME_MAX } from "~/lib/limits";
import { type FundingInput, fundingSchema } from "~/lib/schemas/funding";
import { getFormProps, getInputProps, useForm } from "~/lib/use-form";
import { ownItem } from "../texts/intents.server";
import type { Route } from "./+types/route";

// /retrieval/detail/funding?id=N: the owner's funding references (decision 0052), with DataCite's
// names: the funder by name and by ROR id or Crossref Funder ID (found in the registry, or typed),
// the award. Plain forms and links.

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));
const page = (id: number) => `/retrieval/detail/funding?id=${id}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const item = await ownItem(idOf(request), user.id);
  const params = new URL(request.url).searchParams;
  const language = getLocale(context);
  const memberQuery = params.get("member_q")?.trim().slice(0, 100) ?? "";
  const [funding, registry, members] = await Promise.all([
    fundingOf(item.id),
    registrySearch(params.get("ror"), isLanguage(language) ? language : "en"),
    memberQuery ? searchMembers(searchQuerySchema.parse({ q: memberQuery, tab: "members" }), 5) : null,
  ]);
  // A funder picked from the registry's or the members' answers fills the form's funder (a link, so no script is needed).
  const picked = {
    funder_name: params.get("funder_name")?.slice(0, FUNDER_NAME_MAX) ?? "",
    funder_id: params.get("funder_id")?.slice(0, 100) ?? "",
    funder_member: Number(params.get("funder_member")) || null,
  };
  const found = members?.map((m) => ({ id: m.id, name: unmarked(m.nick_name), organisation: m.organisation }));
  return { item: { id: item.id, title: item.title }, funding, registry, members: { query: memberQuery, found }, picked };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const item = await ownItem(idOf(request), user.id);
  const form = await request.formData();
  if (form.get("intent") === "remove") {
    await removeFunding(item.id, Number(form.get("funding")));
    return flashRedirect(request, page(item.id), "success", "notify.updateSuccess");
  }
  const submission = parseWithZod(form, { schema: fundingSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const added = await attempt(() => addFunding(item.id, submission.value, Date.now()));
  if (added instanceof Refused) {
    const { reply, status } = refusalReply(submission, added);
    return data({ result: reply }, { status });
  }
  return flashRedirect(request, page(item.id), "success", "notify.updateSuccess");
}

export default function Funding({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, funding, registry, members, picked } = loaderData;
  const [form, fields] = useForm<Record<keyof FundingInput, string>>({ lastResult: actionData?.result, defaultValue: picked });
  const pick = (funder: Record<string, string>) => `${page(item.id)}&${new URLSearchParams(funder)}`;
  const line = (name: keyof FundingInput, label: string) => (
    <Field label={label} errors={fields[name].errors} {...getInputProps(fields[name], { type: "text" })} />
  );
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4">
      <title>{`${t("funding.of", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("funding.of", { title: item.title })}</h2>
      <p>
        <Link to={`/retrieval/detail?id=${item.id}`} className="text-brand underline underline-offset-2">
          {t("content.textsBack")}
        </Link>
      </p>
      <p className="text-sm text-slate-600">{t("funding.intro")}</p>
      {funding.length ? (
        <ul className="flex flex-col gap-2" data-testid="funding-list">
          {funding.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white p-2 text-sm">
              <span>
                {f.funder_name}
                {f.funder_id ? ` (${f.funder_id})` : ""}
                {f.award_number ? ` · ${f.award_number}` : ""}
                {f.award_title ? ` · ${f.award_title}` : ""}
                {f.funder_member
                  ? ` · ${t(f.state === "confirmed" ? "funding.confirmed" : f.state === "declined" ? "funding.declined" : "funding.named")}`
                  : ""}
              </span>
              <Form method="post">
                <input type="hidden" name="funding" value={f.id} />
                <Button type="submit" name="intent" value="remove" variant="outline" size="sm">
                  {t("funding.remove")}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{t("funding.none")}</p>
      )}
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h3 className="mb-2 font-medium">{t("funding.add")}</h3>
        <RegistrySearch
          answer={registry}
          action="/retrieval/detail/funding"
          keep={{ id: String(item.id) }}
          pick={(found) => (
            <ul className="mb-3 text-sm" data-testid="ror-results">
              {found.map((org) => (
                <li key={org.id} className="py-1">
                  <OrganisationLabel org={org} />{" "}
                  <Link to={pick({ funder_name: org.name, funder_id: org.id })} className="text-brand underline underline-offset-2">
                    {t("funding.useFunder")}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        />
        <form method="get" action="/retrieval/detail/funding" className="mt-3">
          <input type="hidden" name="id" value={item.id} />
          <Field id="member-query" name="member_q" label={t("funding.findMember")} defaultValue={members.query} maxLength={100}>
            <Button type="submit">{t("ror.searchButton")}</Button>
          </Field>
        </form>
        {members.found?.length === 0 ? <p className="text-sm text-slate-600">{t("search.noResults", { q: members.query })}</p> : null}
        {members.found?.length ? (
          <ul className="mb-3 text-sm" data-testid="member-results">
            {members.found.map((m) => (
              <li key={m.id} className="py-1">
                {m.name}
                {m.organisation ? ` · ${m.organisation}` : ""}{" "}
                <Link
                  to={pick({ funder_name: m.organisation ?? m.name, funder_member: String(m.id) })}
                  className="text-brand underline underline-offset-2"
                >
                  {t("funding.useFunder")}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" {...getFormProps(form)} key={`${picked.funder_id}${picked.funder_member}`}>
          {picked.funder_member ? (
            <p className="mb-2 text-sm text-slate-600" data-testid="picked-member">
              <input type="hidden" name="funder_member" value={picked.funder_member} />
              {t("funding.pickedMember")}
            </p>
          ) : null}
          <FormErrors errors={form.errors} id={form.errorId} />
          {line("funder_name", t("fields.funderName"))}
          {line("funder_id", t("fields.funderId"))}
          {line("award_number", t("fields.awardNumber"))}
          {line("award_uri", t("fields.awardUri"))}
          {line("award_title", t("fields.awardTitle"))}
          <Button type="submit" name="intent" value="add">
            {t("funding.add")}
          </Button>
        </Form>
      </section>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
