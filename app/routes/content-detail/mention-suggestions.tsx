import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The comment field's box: with JavaScript, the item's module (app/enhance/item.ts) suggests names
 * to pick while "@" is typed; a name typed in full works without it (the server reads it).
 */
export function MentionSuggestions({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <div data-mentions={t("content.mentionSuggestions")}>{children}</div>;
}
