import { type RefObject, useEffect } from "react";

// A visited view keeps what was typed (the spec's cached views; docs/decisions/0044-size-and-drafts.md):
// with JavaScript, each form's fields are kept for the tab in sessionStorage while the member types,
// put back when they return to the view through the tags bar, and dropped when the form is sent and
// when they sign out. Never on a noCache page, never a password, file or hidden field.

const PREFIX = "draft:";
const SKIPPED = new Set(["hidden", "password", "file", "submit", "button", "reset", "image"]);
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** A form's kept values: field name → its values, in the order of the fields that bear the name. */
type Values = Record<string, string[]>;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused by the browser's settings: nothing is kept
  }
}

/** Forgets every draft (signing out). */
export function clearDrafts() {
  const kept = storage();
  for (const key of Object.keys(kept ?? {})) if (key.startsWith(PREFIX)) kept?.removeItem(key);
}

const isField = (element: unknown): element is Field =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;
const fieldsOf = (form: HTMLFormElement): Field[] =>
  [...form.elements].flatMap((element) => (isField(element) && element.name && !SKIPPED.has(element.type) ? [element] : []));

const checkable = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio");

function valuesOf(form: HTMLFormElement): Values {
  const values: Values = {};
  for (const field of fieldsOf(form)) {
    values[field.name] ??= [];
    const list = values[field.name] as string[];
    if (checkable(field)) {
      if (field.checked) list.push(field.value);
    } else if (field instanceof HTMLSelectElement && field.multiple) list.push(...[...field.selectedOptions].map((o) => o.value));
    else list.push(field.value);
  }
  return values;
}

/** Puts values back as if typed, so forms that keep their fields in React state hear of it too. */
function restore(form: HTMLFormElement, values: Values) {
  const seen: Record<string, number> = {};
  for (const field of fieldsOf(form)) {
    const kept = values[field.name];
    if (!kept) continue;
    if (checkable(field)) {
      if (field.checked !== kept.includes(field.value)) field.click();
      continue;
    }
    const index = seen[field.name] ?? 0;
    seen[field.name] = index + 1;
    const value = kept[index];
    if (value === undefined || field.value === value) continue;
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set;
    setter?.call(field, value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

/** Keeps the drafts of the forms inside `container` for the view at `address`, unless `enabled` is false. */
export function useDrafts(container: RefObject<HTMLElement | null>, address: string, enabled: boolean) {
  useEffect(() => {
    const root = container.current;
    const kept = storage();
    if (!root || !kept || !enabled) return;
    const forms = () => [...root.querySelectorAll("form")];
    const keyOf = (form: HTMLFormElement) => `${PREFIX}${address}#${form.id || forms().indexOf(form)}`;
    // The events restoring sends are not typing: what they put back is kept already.
    let restoring = true;
    for (const form of forms()) {
      const draft = kept.getItem(keyOf(form));
      if (draft) restore(form, JSON.parse(draft) as Values);
    }
    restoring = false;
    const save = (event: Event) => {
      const form = restoring ? null : (event.target as Field).form;
      if (form && fieldsOf(form).length) kept.setItem(keyOf(form), JSON.stringify(valuesOf(form)));
    };
    const sent = (event: Event) => kept.removeItem(keyOf(event.target as HTMLFormElement));
    root.addEventListener("input", save);
    root.addEventListener("change", save);
    root.addEventListener("submit", sent, true);
    return () => {
      root.removeEventListener("input", save);
      root.removeEventListener("change", save);
      root.removeEventListener("submit", sent, true);
    };
  }, [container, address, enabled]);
}
