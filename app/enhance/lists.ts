// A paged list (the feed, recommendations, search results; docs/decisions/0046): as its page links
// scroll into view, the next page's list is read from that page's own HTML and appended, once per
// item, with the CSS that page carried.
// Without JavaScript the links open the next page.

const list = document.querySelector<HTMLElement>("[data-paged]");
const links = document.querySelector<HTMLElement>("[data-load-more]");
const added = new Set<string>();
const keyOf = (item: Element) => item.querySelector("a")?.getAttribute("href") ?? item.textContent;

async function more(observer: IntersectionObserver) {
  const next = links?.querySelector<HTMLAnchorElement>("[data-testid=next-page]");
  if (!list || !links || !next) return observer.disconnect();
  observer.unobserve(links);
  const note = document.createElement("span");
  note.className = "text-slate-500";
  note.textContent = links.dataset.loadMore ?? "";
  next.parentElement?.insertBefore(note, next);
  try {
    const res = await fetch(next.href, { headers: { Accept: "text/html" } });
    if (!res.ok) throw new Error(`next page: ${res.status}`);
    const page = new DOMParser().parseFromString(await res.text(), "text/html");
    const shown = new Set([...list.children].map(keyOf));
    for (const item of page.querySelector("[data-paged]")?.children ?? []) {
      if (!shown.has(keyOf(item))) list.appendChild(document.importNode(item, true));
    }
    // The next page's items come with the CSS that page carried (each page carries only what it uses).
    const css = page.getElementById("critical-css")?.textContent;
    if (css && !added.has(css)) {
      added.add(css);
      const style = document.createElement("style");
      style.nonce = document.getElementById("critical-css")?.nonce ?? "";
      style.textContent = css;
      document.head.appendChild(style);
    }
    const after = page.querySelector("[data-load-more] [data-testid=next-page]");
    if (after) next.replaceWith(document.importNode(after, true));
    else next.remove();
    // Observed again: a page still in view asks for the one after it.
    observer.observe(links);
  } catch (error) {
    console.error(error); // the link still opens the next page
  } finally {
    note.remove();
  }
}

if (list && links && "IntersectionObserver" in window) {
  const observer = new IntersectionObserver((entries, self) => {
    if (entries.some((entry) => entry.isIntersecting)) more(self);
  });
  observer.observe(links);
}

// A module of its own (each file here is bundled alone, scripts/vite-enhance.ts).
export {};
