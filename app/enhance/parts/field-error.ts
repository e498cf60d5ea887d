/**
 * The message beside a form field, as the server renders a field's error (components/ui/field.tsx):
 * with `text` the field is invalid and described by it; with null the message goes.
 */
export function fieldError(input: HTMLInputElement, text: string | null) {
  const id = `${input.id}-error`;
  const others = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((ref) => ref && ref !== id);
  let note = document.getElementById(id);
  if (text === null) {
    note?.remove();
    input.removeAttribute("aria-invalid");
    if (others.length) input.setAttribute("aria-describedby", others.join(" "));
    else input.removeAttribute("aria-describedby");
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = id;
    note.className = "mt-1 text-sm text-red-600";
    note.dataset.testid = `error-${input.name}`;
    input.parentElement?.insertAdjacentElement("afterend", note);
  }
  note.textContent = text;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", [id, ...others].join(" "));
}
