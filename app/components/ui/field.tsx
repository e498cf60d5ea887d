import type * as React from "react";
import { useTranslation } from "react-i18next";
import { translateError } from "~/lib/form-errors";
import { cn } from "~/lib/utils";

interface FieldProps extends React.ComponentProps<"input"> {
  label: string;
  errors?: string[];
  hint?: string;
  children?: React.ReactNode;
}

/** A labelled input with its translated errors beside it (shadcn-style input). */
export function Field({ label, errors, hint, children, className, id, ...input }: FieldProps) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={[errors?.length ? errorId : "", hint ? hintId : ""].join(" ").trim() || undefined}
          className={cn(
            "h-9 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/30 aria-invalid:border-red-500",
            className,
          )}
          {...input}
        />
        {children}
      </div>
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={errorId} className="mt-1 text-sm text-red-600" data-testid={`error-${input.name}`}>
          {errors.map((e) => translateError(t, e)).join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** Errors about the whole form (wrong credentials, limits). */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
      data-testid="form-error"
    >
      {errors.map((e) => translateError(t, e)).join(" ")}
    </div>
  );
}
