import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { OrcidButton, OrcidLink } from "~/components/orcid";
import { Button } from "~/components/ui/button";

/** Settings' ORCID part: link an iD by signing in to ORCID, or see and unlink the linked one. */
export function OrcidSettings({
  orcid,
  name,
  hasPassword,
  enabled,
}: {
  orcid: string | null;
  name: string | null;
  hasPassword: boolean;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="mb-1 font-medium">{t("orcid.title")}</h2>
      {orcid ? (
        <>
          <p className="mb-2 text-sm" data-testid="orcid-linked">
            {t("orcid.linkedAs", { name: name ?? orcid })} <OrcidLink orcid={orcid} />
          </p>
          <p className="mb-3 text-sm text-slate-600">{t("orcid.linkedHelp")}</p>
          {hasPassword ? (
            <Form method="post" action="/personal/Setting/orcid">
              <Button type="submit" name="intent" value="unlink-orcid" variant="outline" data-testid="orcid-unlink">
                {t("orcid.unlink")}
              </Button>
            </Form>
          ) : (
            <p className="text-sm text-slate-600" data-testid="orcid-only-way-in">
              {t("orcid.onlyWayIn")}
            </p>
          )}
        </>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600">{t("orcid.linkHelp")}</p>
          {enabled ? (
            <div className="max-w-xs">
              <OrcidButton intent="link" label={t("orcid.link")} />
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
