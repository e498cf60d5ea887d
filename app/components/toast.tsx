import { useState } from "react";
import { useTranslation } from "react-i18next";
import { translateError } from "~/lib/form-errors";
import type { Flash } from "~/lib/shapes";
import { cn } from "~/lib/utils";

const tone = {
  success: "border-green-200 bg-green-50 text-green-800",
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-slate-200 bg-white text-slate-800",
} as const;

/** A notification carried by the flash cookie; it fades after 5 s by CSS, and the shell module hides it then. */
export function Toast({ flash }: { flash: Flash }) {
  const { t } = useTranslation();
  return (
    <div
      role={flash.kind === "error" ? "alert" : "status"}
      data-testid="toast"
      data-notice
      className={cn("toast fixed top-14 left-1/2 z-50 -translate-x-1/2 rounded-md border px-4 py-3 text-sm shadow-md", tone[flash.kind])}
    >
      {translateError(t, flash.key)}
    </div>
  );
}

/**
 * The latest flash's toast. A revalidation that brings no flash (a live update refreshing the
 * badge, another form's answer) does not take it away before its 5 s: the flash was read once.
 */
export function FlashToast({ flash }: { flash: Flash | null }) {
  const [shown, setShown] = useState(flash);
  if (flash && flash.id !== shown?.id) setShown(flash);
  return shown ? <Toast key={shown.id} flash={shown} /> : null;
}
