// A visited view keeps what was typed (the spec's cached views; docs/decisions/0044-size-and-drafts.md):
// with JavaScript (the shell module, app/enhance/shell.ts), each form's fields are kept for the tab in sessionStorage while the member types,
// put back when they return to the view, and dropped when the form is sent and when they sign out.
// Never on a noCache page. Kept small, as every member page carries it, without a framework: a form's values are a list
// in the order of its fields, as the page renders them.

const PREFIX = "draft:";
/** The fields a draft holds, by their `type`: never a password, file or hidden field. */
const KEPT = /^(text|search|email|url|tel|number|date|time|datetime-local|month|week|textarea|select-one|checkbox|radio)$/;
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const keptFields = (form: HTMLFormElement) => [...form.elements].filter((field) => KEPT.test((field as Field).type)) as Field[];
const checkable = (field: Field): field is HTMLInputElement => field.type === "checkbox" || field.type === "radio";

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

/** Puts values back as if typed, so forms that keep their fields in React state hear of it too. */
function restore(form: HTMLFormElement, values: (string | boolean)[]) {
  keptFields(form).forEach((field, index) => {
    const value = values[index];
    if (checkable(field)) {
      if (field.checked !== value) field.click();
    } else if (typeof value === "string" && field.value !== value) {
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set?.call(field, value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
}

/** Keeps the drafts of the forms inside `root` for the view at `address`; answers how to stop. */
export function keepDrafts(root: HTMLElement, address: string): () => void {
  const kept = storage();
  if (!kept) return () => {};
  // By place, not id: a form's id may come from useId, which differs between a page served and one rendered in the browser.
  const keyOf = (form: HTMLFormElement) => `${PREFIX}${address}#${[...root.querySelectorAll("form")].indexOf(form)}`;
  for (const form of root.querySelectorAll("form")) {
    const draft = kept.getItem(keyOf(form));
    if (draft) restore(form, JSON.parse(draft));
  }
  // Every field sends "input" as it changes (a select and a checkbox too).
  const save = (event: Event) => {
    const form = (event.target as Field).form;
    if (form) kept.setItem(keyOf(form), JSON.stringify(keptFields(form).map((f) => (checkable(f) ? f.checked : f.value))));
  };
  const sent = (event: Event) => kept.removeItem(keyOf(event.target as HTMLFormElement));
  root.addEventListener("input", save);
  root.addEventListener("submit", sent, true);
  return () => {
    root.removeEventListener("input", save);
    root.removeEventListener("submit", sent, true);
  };
}
