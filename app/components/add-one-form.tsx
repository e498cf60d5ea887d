import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { z } from "zod";
import { Button } from "~/components/ui/button";
import { translateError } from "~/lib/form-errors";
import { useReplyCleared } from "~/lib/use-reply-cleared";

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
 * checked with the server's schema, the refusal beside the control, a help line under it.
 */
export function AddOneForm({
  intent,
  schema,
  field,
  label,
  help,
  lastResult,
  control,
}: {
  intent: string;
  schema: z.ZodObject;
  field: string;
  label: string;
  help: string;
  lastResult: SubmissionResult | undefined;
  control: (props: ControlProps) => ReactNode;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  useReplyCleared(form, lastResult);
  const meta = fields[field as keyof typeof fields];
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
