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

/** The hint and errors under a control, which its aria-describedby names (ids `{id}-hint`, `{id}-error`). */
function useNotes(id: string | undefined, name: string | undefined, hint: string | undefined, errors: string[] | undefined) {
  const { t } = useTranslation();
  const invalid = Boolean(errors?.length);
  return {
    aria: {
      "aria-invalid": invalid || undefined,
      "aria-describedby": [invalid ? `${id}-error` : "", hint ? `${id}-hint` : ""].join(" ").trim() || undefined,
    },
    notes: (
      <>
        {hint ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {hint}
          </p>
        ) : null}
        {invalid ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-red-600" data-testid={`error-${name}`}>
            {errors?.map((e) => translateError(t, e)).join(" ")}
          </p>
        ) : null}
      </>
    ),
  };
}

/** A labelled input with its hint and translated errors beside it (shadcn-style input). */
export function Field({ label, errors, hint, children, className, id, ...input }: FieldProps) {
  const { aria, notes } = useNotes(id, input.name, hint, errors);
  const control = <input id={id} {...aria} className={cn("field-input", className)} {...input} />;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children ? (
        <div className="flex gap-2">
          {control}
          {children}
        </div>
      ) : (
        control
      )}
      {notes}
    </div>
  );
}

/** The Field of multi-line text. */
export function TextAreaField({
  label,
  hint,
  errors,
  id,
  ...props
}: React.ComponentProps<"textarea"> & { label: string; hint?: string; errors?: string[] }) {
  const { aria, notes } = useNotes(id, props.name, hint, errors);
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} {...aria} className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm" {...props} />
      {notes}
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
