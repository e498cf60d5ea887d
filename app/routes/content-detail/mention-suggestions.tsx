import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** The "@name" being typed just before the caret, if there is one. */
function typedMention(field: HTMLTextAreaElement) {
  const before = field.value.slice(0, field.selectionStart ?? field.value.length);
  // Names hold spaces: what follows the last "@" on the line, up to 40 characters, is the start of one.
  const match = /(^|\s)@([^@\n]{1,40})$/u.exec(before);
  return match ? { query: match[2] ?? "", start: before.length - (match[2] ?? "").length - 1 } : null;
}

/**
 * With JavaScript, names to pick while typing "@" in the comment field (a name typed in full works
 * without it: the server reads it). Picking one writes "@Name " in place of what was typed.
 */
export function MentionSuggestions({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [found, setFound] = useState<{ id: number; nick_name: string }[]>([]);
  const typed = useRef<{ field: HTMLTextAreaElement; start: number; query: string } | null>(null);
  const [query, setQuery] = useState("");
  useEffect(() => {
    if (!query) return setFound([]);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/shell/mentions?q=${encodeURIComponent(query)}`, { signal: controller.signal })
        .then((res) => (res.ok ? (res.json() as Promise<{ members: { id: number; nick_name: string }[] }>) : { members: [] }))
        .then((body) => setFound(body.members))
        .catch(() => {});
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  const pick = (name: string) => {
    const at = typed.current;
    if (!at) return;
    const { field, start } = at;
    const end = field.selectionStart ?? field.value.length;
    field.value = `${field.value.slice(0, start)}@${name} ${field.value.slice(end)}`;
    field.focus();
    field.setSelectionRange(start + name.length + 2, start + name.length + 2);
    setQuery("");
  };
  return (
    <div
      onInput={(event) => {
        if (!(event.target instanceof HTMLTextAreaElement)) return;
        const mention = typedMention(event.target);
        typed.current = mention ? { field: event.target, ...mention } : null;
        setQuery(mention?.query ?? "");
      }}
    >
      {children}
      {found.length ? (
        <ul className="mt-1 flex flex-wrap gap-1 text-sm" aria-label={t("content.mentionSuggestions")} data-testid="mention-suggestions">
          {found.map((member) => (
            <li key={member.id}>
              <button
                type="button"
                className="rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-100"
                onClick={() => pick(member.nick_name)}
              >
                @{member.nick_name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
