import { useTranslation } from "react-i18next";
import { ALL_RIGHTS_RESERVED, type LicenseInfo } from "~/lib/licenses";

/** What a reader may do with the item: its licence's name, linked to its text. */
export function LicenseLine({ license }: { license: LicenseInfo | null }) {
  const { t } = useTranslation();
  return (
    <p className="mt-1 text-sm text-slate-600" data-testid="license">
      {t("content.license")}:{" "}
      {!license ? (
        t("content.licenseNotSpecified")
      ) : license.id === ALL_RIGHTS_RESERVED ? (
        t("content.allRightsReserved")
      ) : license.url ? (
        <a href={license.url} rel="license" className="text-brand underline underline-offset-2">
          {license.name} ({license.id})
        </a>
      ) : (
        license.id
      )}
    </p>
  );
}
