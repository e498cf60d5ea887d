import { type HTMLInputTypeAttribute, useEffect, useId, useRef, useState } from "react";

// Forms are judged on the server only (docs/decisions/0011): an action answers a refused post with
// Conform's reply (`submission.reply()`), and this hook turns that reply into what the page shows,
// the same on the server and in the browser. It is the part of Conform's useForm the pages use,
// in a few lines instead of Conform's 9 KB in every page's script.

/** What an action answers for a refused post (Conform's SubmissionResult, as the page receives it). */
export interface FormReply {
  status?: "error" | "success";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
  /** The server filled the form in (from a DOI): its values replace what the controls hold. */
  filled?: boolean;
}

type Value = string | string[] | undefined;

export interface FieldMetadata {
  id: string;
  name: string;
  errorId: string;
  errors: string[] | undefined;
  /** The value the control starts from: the refused post's, else the form's default. */
  initialValue: Value;
  /** Changes when the form is reset, so a control keyed by it starts again from its default. */
  key: string | undefined;
}

export interface FormMetadata {
  id: string;
  errorId: string;
  /** Errors about the whole form. */
  errors: string[] | undefined;
  allErrors: Record<string, string[]>;
  /** Back to the defaults, values and errors alike, as a fresh page would show the form. */
  reset(): void;
}

/** A default as a form control holds it (numbers as text, true as "on", dates as ISO text). */
function asFormValue(value: unknown): Value {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(asFormValue).filter((item): item is string => typeof item === "string");
  return undefined;
}

const asFormValues = (values: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, asFormValue(value)]));

const isControl = (element: unknown): element is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

/** Puts every control the member can change back to its default; hidden inputs and buttons keep theirs. */
function resetControls(form: HTMLFormElement, defaults: Record<string, Value>) {
  for (const element of form.elements) {
    if (!isControl(element) || !element.name || ["hidden", "submit", "button", "reset", "image"].includes(element.type)) continue;
    const value = defaults[element.name];
    const has = (option: string) => (Array.isArray(value) ? value.includes(option) : value === option);
    if (element instanceof HTMLSelectElement) for (const option of element.options) option.selected = has(option.value);
    else if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio"))
      element.checked = has(element.value);
    else element.value = typeof value === "string" ? value : "";
  }
}

/** Puts the given values into the controls they name (a file input, or a control not named, keeps its own). */
function fillControls(form: HTMLFormElement, values: Record<string, Value>) {
  for (const element of form.elements) {
    if (!isControl(element) || !(element.name in values) || ["hidden", "file", "submit", "button"].includes(element.type)) continue;
    const value = values[element.name];
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio"))
      element.checked = element.value === value;
    else element.value = typeof value === "string" ? value : "";
  }
}

export function useForm<Shape extends object = Record<string, unknown>>({
  id,
  lastResult,
  defaultValue,
}: {
  id?: string;
  lastResult?: FormReply | null;
  defaultValue?: { [Name in keyof Shape]?: unknown };
}): [FormMetadata, { [Name in keyof Shape]-?: FieldMetadata }] {
  const generatedId = useId();
  const formId = id ?? generatedId;
  const defaults = asFormValues(defaultValue);
  // The refused post's values when the server renders it; a later refusal leaves what the member typed.
  const [start, setStart] = useState(() => (lastResult?.initialValue ? asFormValues(lastResult.initialValue) : defaults));
  const [resets, setResets] = useState(0);
  const errors: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(lastResult?.error ?? {})) if (list?.length) errors[name] = list;

  // A refusal that arrives while the page is open moves the focus to its first field.
  const shown = useRef(lastResult);
  useEffect(() => {
    if (shown.current === lastResult) return;
    shown.current = lastResult;
    const form = document.forms.namedItem(formId);
    if (form && lastResult?.filled) fillControls(form, asFormValues(lastResult.initialValue));
    if (lastResult?.status !== "error") return;
    for (const element of form?.elements ?? []) {
      if (isControl(element) && lastResult.error?.[element.name]?.length) {
        element.focus();
        break;
      }
    }
  }, [formId, lastResult]);

  const field = (name: string): FieldMetadata => {
    const fieldId = `${formId}-${name}`;
    return {
      id: fieldId,
      name,
      errorId: `${fieldId}-error`,
      errors: errors[name],
      initialValue: start[name],
      // The field's name in it too: two controls keyed by their fields may be siblings.
      key: resets ? `${name}-${resets}` : undefined,
    };
  };
  const form: FormMetadata = {
    id: formId,
    errorId: `${formId}-error`,
    errors: errors[""],
    allErrors: errors,
    reset() {
      const element = document.forms.namedItem(formId);
      if (element) resetControls(element, defaults);
      setStart(defaults);
      setResets((count) => count + 1);
    },
  };
  const fields = new Proxy({} as { [Name in keyof Shape]-?: FieldMetadata }, {
    get: (_, name) => (typeof name === "string" ? field(name) : undefined),
  });
  return [form, fields];
}

/** The form element's attributes: the server judges, so the browser's own checks stay off. */
export const getFormProps = (form: FormMetadata) => ({
  id: form.id,
  noValidate: true,
  "aria-describedby": form.errors ? form.errorId : undefined,
});

// A control's name, id and starting value; its label, hint and errors (and the aria attributes that tie
// them to it) are Field's and TextAreaField's.
export const getInputProps = (field: FieldMetadata, { type }: { type: HTMLInputTypeAttribute }) => ({
  id: field.id,
  name: field.name,
  type,
  defaultValue: type !== "file" && typeof field.initialValue === "string" ? field.initialValue : undefined,
});

export const getTextareaProps = (field: FieldMetadata) => ({
  id: field.id,
  name: field.name,
  defaultValue: typeof field.initialValue === "string" ? field.initialValue : undefined,
});
