import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { config } from "~/.server/config/config";
import { itemTextsRead, suggestionFailed } from "~/.server/content/item-texts";
import { readOne } from "~/.server/reads";
import { requireUser } from "~/.server/web/auth/session";
import { runIntent } from "~/.server/web/shell/intents";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { Field, FormErrors, TextAreaField } from "~/components/ui/field";
import { languageName } from "~/lib/captions";
import { LANGUAGES, type Language } from "~/lib/i18n";
import { interfaceLanguage } from "~/lib/item-languages";
import { type FormReply, getFormProps, getInputProps, getTextareaProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/route";
import { intents, ownItem } from "./intents.server";

// /retrieval/detail/texts?id=N: the owner's title and abstract in the interface's other languages
// (decision 0050), shown to readers of each language as the author's translation. Plain forms.

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const item = await ownItem(idOf(request), user.id);
  const now = Date.now();
  const texts = (await readOne(itemTextsRead(item.id))).map((text) => ({ ...text, failed: suggestionFailed(text, now) }));
  return { item: { id: item.id, title: item.title, language: item.language }, texts, suggestions: config().translation !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const item = await ownItem(idOf(request), user.id);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, form, item });
}

type Text = Route.ComponentProps["loaderData"]["texts"][number];

function TextForm({
  id,
  lang,
  text,
  reply,
  suggestions,
}: {
  id: number;
  lang: Language;
  text: Text | undefined;
  reply: FormReply | undefined;
  suggestions: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = languageName(lang, i18n.language);
  const machine = text?.source === "machine" ? text : undefined;
  const waiting = machine?.state === "pending" && !machine.failed;
  const [form, fields] = useForm<{ title: string; summary: string }>({
    id: `text-${lang}`,
    lastResult: reply,
    defaultValue: { title: text?.title ?? "", summary: text?.summary ?? "" },
  });
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`text-${lang}`} lang={lang}>
      <form method="post" action={`/retrieval/detail/texts?id=${id}`} {...getFormProps(form)}>
        <input type="hidden" name="lang" value={lang} />
        <FormErrors errors={form.errors} id={form.errorId} />
        {machine ? (
          <p
            className="mb-2 text-sm text-slate-600"
            data-testid={`suggestion-${lang}`}
            data-state={machine.failed ? "failed" : machine.state}
          >
            {machine.state === "shown"
              ? t("content.byMachine")
              : machine.state === "suggested"
                ? t("content.suggestionReady")
                : t(machine.failed ? "content.suggestionFailed" : "content.suggestionPending", { language })}
          </p>
        ) : null}
        <Field
          label={t("content.textTitle", { language })}
          errors={fields.title.errors}
          {...getInputProps(fields.title, { type: "text" })}
        />
        <TextAreaField
          label={t("content.textSummary", { language })}
          errors={fields.summary.errors}
          {...getTextareaProps(fields.summary)}
          rows={4}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save">
            {t("content.textSave", { language })}
          </Button>
          {machine?.state === "suggested" ? (
            <Button type="submit" name="intent" value="accept" variant="outline" formNoValidate>
              {t("content.acceptSuggestion", { language })}
            </Button>
          ) : null}
          {suggestions && !waiting && (!text || machine?.failed) ? (
            <Button type="submit" name="intent" value="suggest" variant="outline" formNoValidate>
              {t("content.suggest", { language })}
            </Button>
          ) : null}
          {text && !waiting ? (
            <Button type="submit" name="intent" value="remove" variant="outline" formNoValidate>
              {t("content.textRemove", { language })}
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

export default function Texts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { item, texts, suggestions } = loaderData;
  const original = interfaceLanguage(item.language);
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4">
      <title>{`${t("content.textsOf", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("content.textsOf", { title: item.title })}</h2>
      <p>
        <Link to={`/retrieval/detail?id=${item.id}`} className="text-brand underline underline-offset-2">
          {t("content.textsBack")}
        </Link>
      </p>
      <p className="text-sm text-slate-600">
        {t("content.textsIntro", { language: item.language ? languageName(item.language, i18n.language) : "—" })}
      </p>
      {LANGUAGES.filter((lang) => lang !== original).map((lang) => (
        <TextForm
          key={lang}
          id={item.id}
          lang={lang}
          text={texts.find((text) => text.lang === lang)}
          reply={actionData?.lang === lang ? actionData.result : undefined}
          suggestions={suggestions}
        />
      ))}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
