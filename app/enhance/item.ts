// An item's page (docs/decisions/0046): a transcript line seeks the player, the PDF viewer opens once
// the page has loaded, typing "@" in a comment suggests members, and a comment takes its passage
// from the pages or the transcript (decision 0051). Without JavaScript each still
// works: the line's link opens the page at that second, the viewer is in a <noscript>, and a name
// typed in full is read by the server.
import { closest } from "./parts/dom";
import { onDemand } from "./parts/on-demand";

function transcript() {
  document.addEventListener("click", (event) => {
    const link = closest<HTMLAnchorElement>(event.target, "[data-testid=transcript] a[data-t], [data-testid=comment-quote] a[data-t]");
    const video = document.querySelector<HTMLVideoElement>("video[data-testid=video]");
    if (!link || !video || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    video.currentTime = Number(link.dataset.t);
    video.play().catch(() => {});
    history.replaceState(history.state, "", link.href);
  });
}

/**
 * The browser's PDF viewer runs on the page's thread and its file shares the network: on a slow
 * phone it opens after the page has loaded, in the box kept for it (nothing moves). Where the page
 * hides the box (a phone, content-detail/pdf-viewer.tsx), it does not open.
 */
function pdfViewer() {
  const box = document.querySelector<HTMLElement>("[data-pdf-viewer]");
  if (!box || box.getClientRects().length === 0) return;
  const open = () => {
    const frame = document.createElement("iframe");
    frame.src = box.dataset.src ?? "";
    frame.title = box.dataset.title ?? "";
    frame.className = "h-full w-full";
    frame.dataset.testid = "pdf-viewer";
    frame.textContent = box.dataset.fallback ?? "";
    box.replaceChildren(frame);
  };
  if (document.readyState === "complete") open();
  else window.addEventListener("load", open, { once: true });
}

/** The "@name" being typed just before the caret, if there is one. */
function typedMention(field: HTMLTextAreaElement) {
  const before = field.value.slice(0, field.selectionStart ?? field.value.length);
  // Names hold spaces: what follows the last "@" on the line, up to 40 characters, is the start of one.
  const match = /(^|\s)@([^@\n]{1,40})$/u.exec(before);
  return match ? { query: match[2] ?? "", start: before.length - (match[2] ?? "").length - 1 } : null;
}

/** Names to pick while typing "@": picking one writes "@Name " in place of what was typed. */
function mentions() {
  let asked: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (box: HTMLElement, field: HTMLTextAreaElement, start: number, names: string[]) => {
    box.querySelector("[data-testid=mention-suggestions]")?.remove();
    if (!names.length) return;
    const list = document.createElement("ul");
    list.className = "mt-1 flex flex-wrap gap-1 text-sm";
    list.dataset.testid = "mention-suggestions";
    list.setAttribute("aria-label", box.dataset.mentions ?? "");
    for (const name of names) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-100";
      button.textContent = `@${name}`;
      button.addEventListener("click", () => {
        const end = field.selectionStart ?? field.value.length;
        field.value = `${field.value.slice(0, start)}@${name} ${field.value.slice(end)}`;
        field.focus();
        field.setSelectionRange(start + name.length + 2, start + name.length + 2);
        list.remove();
      });
      const item = document.createElement("li");
      item.appendChild(button);
      list.appendChild(item);
    }
    box.appendChild(list);
  };
  document.addEventListener("input", (event) => {
    const field = event.target;
    const box = closest<HTMLElement>(field, "[data-mentions]");
    if (!box || !(field instanceof HTMLTextAreaElement)) return;
    clearTimeout(timer);
    asked?.abort();
    const mention = typedMention(field);
    if (!mention) return show(box, field, 0, []);
    const controller = new AbortController();
    asked = controller;
    timer = setTimeout(() => {
      fetch(`/shell/mentions?q=${encodeURIComponent(mention.query)}`, { signal: controller.signal })
        .then((res) => (res.ok ? (res.json() as Promise<{ members: { nick_name: string }[] }>) : { members: [] }))
        .then((body) =>
          show(
            box,
            field,
            mention.start,
            body.members.map((member) => member.nick_name),
          ),
        )
        .catch(() => {});
    }, 150);
  });
}

const pagesPart = onDemand<typeof import("./on-demand/passage-pages")>(__ON_DEMAND__["passage-pages"]);

/**
 * Comments on a passage (docs/decisions/0051): the form's passage brings the quoting view (or, on
 * a video, takes lines selected in the transcript), and a comment's quote opens its page with the
 * words marked (its link, to the PDF at that page, is followed when the view cannot load).
 */
function passages() {
  const fields = document.querySelector<HTMLElement>("[data-passage]");
  if (fields)
    pagesPart()
      .then((part) => part.openForm(fields))
      .catch(() => {});
  document.addEventListener("click", (event) => {
    const link = closest<HTMLAnchorElement>(event.target, "a[data-quote-page]");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    pagesPart()
      .then((part) => part.openQuote(link))
      .catch(() => location.assign(link.href));
  });
}

transcript();
pdfViewer();
mentions();
passages();
