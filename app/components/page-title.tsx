import { useTranslation } from "react-i18next";
import type { TitleKey } from "~/lib/route-meta";

/** The spec's document title: '{title} - {product title}' (React hoists it into <head>). */
export function PageTitle({ titleKey }: { titleKey: TitleKey }) {
  const { t } = useTranslation();
  return <title>{`${t(`route.${titleKey}`)} - ${t("product.title")}`}</title>;
}
