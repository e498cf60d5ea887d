import { useTranslation } from "react-i18next";
import { Button } from "./ui/button";

/** A file going up in parts: how far, and cancel. */
export function PartsProgress({ progress, onCancel }: { progress: number; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-3" data-testid="upload-progress">
      <progress max={100} value={Math.round(progress * 100)} className="h-2 flex-1" aria-label={t("content.progress")} />
      <span className="w-12 text-right text-sm tabular-nums">{Math.round(progress * 100)}%</span>
      <Button type="button" variant="outline" onClick={onCancel}>
        {t("content.cancel")}
      </Button>
    </div>
  );
}
