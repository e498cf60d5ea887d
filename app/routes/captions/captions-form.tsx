import { useTranslation } from "react-i18next";
import { CaptionFields } from "~/components/caption-fields";
import { Button } from "~/components/ui/button";
import { FormErrors } from "~/components/ui/field";
import { type CaptionInfo, captionFileUrl, languageName } from "~/lib/captions";
import { type FormReply, getFormProps, useForm } from "~/lib/use-form";

/**
 * The owner's captions (decision 0043): each language's file to download or remove, and a WebVTT
 * file to add, replacing the language's earlier one. Plain forms, with or without JavaScript.
 */
export function CaptionsForm({ id, captions, reply }: { id: number; captions: CaptionInfo[]; reply: FormReply | undefined }) {
  const { t, i18n } = useTranslation();
  const [form, fields] = useForm<{ lang: string; captions: unknown }>({
    id: "captions-form",
    lastResult: reply,
    defaultValue: { lang: "" },
  });
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="captions">
      {captions.length ? (
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          {captions.map((c) => (
            <li key={c.lang} className="flex flex-wrap items-center gap-2">
              <span>
                {languageName(c.lang, i18n.language)} ({c.lang}) · {t("content.captionsCues", { count: c.cue_count })}
                {c.source === "automatic" ? ` · ${t("content.captionsAutomatic")}` : ""}
              </span>
              <a href={captionFileUrl(id, c.lang)} download className="text-brand underline underline-offset-2">
                {t("content.captionsDownload")}
              </a>
              <form method="post" action={`/retrieval/detail/captions?id=${id}`}>
                <input type="hidden" name="intent" value="remove-captions" />
                <input type="hidden" name="lang" value={c.lang} />
                <Button
                  type="submit"
                  variant="ghost"
                  size="sm"
                  aria-label={t("content.captionsRemoveLanguage", { language: languageName(c.lang, i18n.language) })}
                >
                  {t("content.captionsRemove")}
                </Button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{t("content.captionsNone")}</p>
      )}
      <form
        method="post"
        encType="multipart/form-data"
        action={`/retrieval/detail/captions?id=${id}`}
        className="mt-3"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="captions" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <CaptionFields lang={fields.lang} file={fields.captions} required />
        <Button type="submit">{t("content.captionsSubmit")}</Button>
      </form>
    </section>
  );
}
