import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Translation } from "#locales/en/translation";

export type EmptyKey = Exclude<keyof Translation["empty"], "heading" | "note">;

/** An honest placeholder for a screen whose capability is still being built. */
export function EmptyState({ what }: { what: EmptyKey }) {
  const { t } = useTranslation();
  return (
    <section
      className="mx-auto max-w-xl rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center"
      data-testid="empty-state"
    >
      <Construction className="mx-auto mb-3 size-8 text-slate-400" aria-hidden />
      <h2 className="mb-2 text-lg font-semibold">{t("empty.heading")}</h2>
      <p className="text-slate-600">{t(`empty.${what}`)}</p>
      <p className="mt-3 text-xs text-slate-400">{t("empty.note")}</p>
    </section>
  );
}
