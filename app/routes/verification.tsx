import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { postedOf } from "~/.server/http/body";
import { latestVerification, verificationKindOf } from "~/.server/members/verification";
import { submitPostedVerification } from "~/.server/members/verification-form";
import { attempt, Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { FieldErrors } from "~/components/content-fields";
import { PageTitle } from "~/components/page-title";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { VERIFICATION_FIELDS, VERIFICATION_PHOTOS, type VerificationKind } from "~/lib/choices";
import { translateError } from "~/lib/form-errors";
import { VERIFICATION_EXTRA_MAX, VERIFICATION_PHOTO_MB } from "~/lib/limits";
import { type FormReply, getFormProps, getInputProps, useForm } from "~/lib/use-form";
import { useReplyCleared } from "~/lib/use-reply-cleared";
import type { Route } from "./+types/verification";

/** /personal/verification: the status of the member's identity verification, and the form that fits their account. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const latest = await latestVerification(user.id);
  return {
    kind: verificationKindOf(user.kind),
    status: latest?.status ?? ("none" as const),
    reason: latest?.reason ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const sent = await attempt(() => submitPostedVerification(postedOf(request), user.id, verificationKindOf(user.kind), Date.now()));
  if (sent instanceof Refused) {
    const { reply, status } = refusalReply(undefined, sent);
    return data({ result: reply }, { status });
  }
  return flashRedirect(request, "/personal/verification", "success", "notify.verificationSent");
}

export default function VerificationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { kind, status, reason } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageTitle titleKey="verification" />
      <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="verification-status">
        <h2 className="mb-1 font-medium">{t("verification.status")}</h2>
        <p data-status={status}>{t(`verification.statuses.${status}`)}</p>
        {status === "rejected" && reason ? (
          <p className="mt-1 text-sm text-red-700" data-testid="rejection-reason">
            {t("verification.reason")}: {reason}
          </p>
        ) : null}
      </section>
      {status === "none" || status === "rejected" ? (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-1 font-medium">{t(`verification.${kind}`)}</h2>
          <p className="mb-4 text-sm text-slate-600">{t("verification.help", { max: VERIFICATION_PHOTO_MB })}</p>
          <VerificationForm kind={kind} lastResult={actionData?.result} />
        </section>
      ) : null}
    </div>
  );
}

function VerificationForm({ kind, lastResult }: { kind: VerificationKind; lastResult: FormReply | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
  });
  useReplyCleared(form, lastResult);
  const errors = form.allErrors;
  const photo = (name: string, required = true) => (
    <div className="mb-4" key={name}>
      <label htmlFor={`photo-${name}`} className="mb-1 block text-sm font-medium text-slate-700">
        {t(`fields.${name}` as "fields.idFront")}
      </label>
      <input
        id={`photo-${name}`}
        type="file"
        name={name}
        accept="image/png,image/jpeg"
        required={required}
        multiple={name === "extra"}
        className="block text-sm"
      />
      <FieldErrors name={name} errors={errors[name]} />
    </div>
  );
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} data-testid="verification-form">
      <FormErrors errors={form.errors?.map((e) => translateError(t, e))} id={form.errorId} />
      {VERIFICATION_FIELDS[kind].map((name) => (
        <Field
          label={t(`fields.${name}` as "fields.name")}
          errors={fields[name as keyof typeof fields]?.errors}
          {...getInputProps(fields[name as keyof typeof fields] as never, { type: "text" })}
          key={name}
        />
      ))}
      {VERIFICATION_PHOTOS[kind].map((name) => photo(name))}
      {kind === "personal" ? (
        <>
          {photo("extra", false)}
          <p className="-mt-3 mb-4 text-xs text-slate-500">{t("verification.extraHelp", { max: VERIFICATION_EXTRA_MAX })}</p>
        </>
      ) : null}
      <Button type="submit">{t("verification.submit")}</Button>
    </Form>
  );
}
