import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { translateError } from "~/lib/form-errors";
import { type FormReply, getFormProps, useForm } from "~/lib/use-form";

/** What the form hands its one control: its name, the value to start from, and its accessibility wiring. */
export interface ControlProps {
  name: string;
  defaultValue: string;
  "aria-label": string;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
}

/**
 * A form that adds one thing to the member's own list (an interest, a tag), posted with `intent`:
 * checked by the server, the refusal beside the control, a help line under it.
 */
export function AddOneForm({
  intent,
  field,
  label,
  help,
  lastResult,
  control,
}: {
  intent: string;
  field: string;
  label: string;
  help: string;
  lastResult: FormReply | undefined;
  control: (props: ControlProps) => ReactNode;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
  });
  const meta = fields[field as keyof typeof fields];
  // Nothing is reset after an addition, so a choice made while the page updates stays.
  const error = meta?.errors?.[0];
  const helpId = `${intent}-help`;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-2" data-testid={intent}>
      <input type="hidden" name="intent" value={intent} />
      <div key={meta?.key}>
        {control({
          name: field,
          defaultValue: String(meta?.initialValue ?? ""),
          "aria-label": label,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": error ? `${meta?.errorId} ${helpId}` : helpId,
        })}
        {error ? (
          <p id={meta?.errorId} role="alert" className="mt-1 text-sm text-red-600">
            {translateError(t, error)}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="outline">
        {label}
      </Button>
      <p id={helpId} className="w-full text-xs text-slate-500">
        {help}
      </p>
    </Form>
  );
}
