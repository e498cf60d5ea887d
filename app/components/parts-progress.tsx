import { useTranslation } from "react-i18next";
import { Button } from "./ui/button";

/**
 * A file going up in parts: how far, and cancel (and the words for a failed request). Hidden until
 * the uploads module (app/enhance/uploads.ts) shows it.
 */
export function PartsProgress() {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-3" data-testid="upload-progress" data-failed={t("notify.requestFailed")} hidden>
      <progress max={100} value={0} className="h-2 flex-1" aria-label={t("content.progress")} />
      <span className="w-12 text-right text-sm tabular-nums" data-percent>
        0%
      </span>
      <Button type="button" variant="outline" data-cancel-upload>
        {t("content.cancel")}
      </Button>
    </div>
  );
}
