// The shell module: what the spec asks of every page, without a framework (docs/decisions/0046).
// Every page with script loads it, last, whether React hydrates the page or not; every behaviour is
// a listener on the document, so markup React renders again later is handled the same. Without
// JavaScript each of these is a form post or a link that the server answers (nothing here is needed).
import { badgeText } from "~/lib/badge";
import { listenForClientErrors } from "~/lib/client-errors";
import { CONTEXT_MENU_WIDTH, NOTIFICATION_MS, PREFETCH_FRESH_MS } from "~/lib/config";
import { clearDrafts, keepDrafts } from "~/lib/drafts";
import { openLive, UNREAD_EVENT } from "~/lib/live-connection";
import { labelFor } from "~/lib/live-label";
import type { LiveEvent } from "~/lib/shapes";
import { closest } from "./parts/dom";

const html = document.documentElement;

/** Notices close after 5 s (CSS fades them; hidden, not removed, since React may own the node). */
function closeNotices() {
  const later = (toast: Element) => setTimeout(() => toast.setAttribute("hidden", ""), NOTIFICATION_MS);
  for (const toast of document.querySelectorAll("[data-notice]")) later(toast);
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node instanceof Element)
          for (const toast of node.matches("[data-notice]") ? [node] : node.querySelectorAll("[data-notice]")) later(toast);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}

/**
 * The hamburger: on a desktop it folds the sidebar in place and tells the server (the cookie keeps
 * it); on a phone it opens the menu over the page, and the dimmed page behind closes it.
 */
function sidebar() {
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    const button = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    const wrapper = document.querySelector<HTMLElement>(".app-wrapper");
    if (!form.matches("[data-sidebar-form]") || button?.name !== "open" || !wrapper) return;
    event.preventDefault();
    const body = new FormData(form, button);
    const open = button.value === "1";
    wrapper.dataset.sidebar = open ? "open" : "closed";
    button.value = open ? "0" : "1";
    button.setAttribute("aria-expanded", String(open));
    fetch(form.action, { method: "POST", body, redirect: "manual" }).catch((error) => console.error("sidebar", error));
  });
  const setMobile = (open: boolean) => {
    const wrapper = document.querySelector<HTMLElement>(".app-wrapper");
    const button = document.querySelector<HTMLButtonElement>("[data-mobile-menu-button]");
    if (!wrapper || !button) return;
    wrapper.dataset.mobileMenu = open ? "open" : "closed";
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", (open ? button.dataset.labelClose : button.dataset.labelOpen) ?? "");
  };
  document.addEventListener("click", (event) => {
    if (closest(event.target, "[data-mobile-menu-button]")) {
      event.preventDefault();
      setMobile(document.querySelector<HTMLElement>(".app-wrapper")?.dataset.mobileMenu !== "open");
    } else if (closest(event.target, ".drawer-bg")) {
      event.preventDefault();
      setMobile(false);
    }
  });
}

/** The tags bar: a right-click menu on a tab (from the page's own template) and middle-click close. */
function tagsBar() {
  const closeMenu = () => document.querySelector("[data-testid=tags-context-menu]")?.remove();
  // A click in the menu is left to do its work (a button taken out of the page would not submit).
  document.addEventListener("click", (event) => closest(event.target, "[data-testid=tags-context-menu]") || closeMenu());
  document.addEventListener("contextmenu", (event) => {
    const tag = closest<HTMLElement>(event.target, "[data-testid=tag]");
    const bar = tag?.closest<HTMLElement>("[data-testid=tags-bar]");
    const template = bar?.querySelector("[data-tags-menu] > ul");
    const link = tag?.querySelector("a");
    if (!tag || !bar || !template || !link) return;
    event.preventDefault();
    closeMenu();
    const menu = template.cloneNode(true) as HTMLElement;
    menu.dataset.testid = "tags-context-menu";
    const path = tag.dataset.path ?? "";
    menu.querySelector("a")?.setAttribute("href", `/redirect${link.getAttribute("href")}`);
    for (const button of menu.querySelectorAll("button")) if (button.name !== "closeAll") button.value = path;
    if (tag.hasAttribute("data-affix")) menu.querySelector("button[name=close]")?.closest("li")?.remove();
    const box = bar.getBoundingClientRect();
    menu.style.left = `${Math.max(0, Math.min(event.clientX - box.left + 15, box.width - CONTEXT_MENU_WIDTH))}px`;
    bar.appendChild(menu);
  });
  document.addEventListener("auxclick", (event) => {
    const tag = closest<HTMLElement>(event.target, "[data-testid=tag]");
    if (event.button !== 1 || !tag || tag.hasAttribute("data-affix")) return;
    event.preventDefault();
    tag.querySelector<HTMLButtonElement>("button[name=close]")?.click();
  });
}

/** Logging out asks first (without JavaScript, /logout is the question), and forgets the tab's drafts. */
function logout() {
  document.addEventListener("click", (event) => {
    const link = closest<HTMLAnchorElement>(event.target, "[data-logout]");
    if (!link) return;
    event.preventDefault();
    if (!window.confirm(link.dataset.logout ?? "")) return;
    clearDrafts();
    const form = document.createElement("form");
    form.method = "post";
    form.action = link.href;
    document.body.appendChild(form);
    form.submit();
  });
}

/**
 * A form that asks before it is sent (`data-confirm`, deleting an item): a dialog, and a yes in its
 * `confirm` field. Without JavaScript the server answers with the question instead.
 */
function confirmForms() {
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) return event.preventDefault();
    const field = form.elements.namedItem("confirm");
    if (field instanceof HTMLInputElement) field.value = "1";
  });
}

/** The unread badges (the sidebar's messages, the header's bell) follow the member's inbox live. */
function liveBadges() {
  const badges = document.querySelectorAll<HTMLElement>("[data-badge]");
  if (!badges.length) return;
  let total = Number(document.querySelector<HTMLElement>("[data-badge=messages]")?.dataset.count ?? 0);
  const show = (event: Extract<LiveEvent, { type: "unread" }>) => {
    for (const badge of badges) {
      const count = badge.dataset.badge === "notifications" ? event.notifications : event.total;
      const text = badgeText(count);
      badge.textContent = text ?? "";
      badge.dataset.count = String(count);
      badge.hidden = !text;
      // The badge's own title (the sidebar's), or the label of the link it sits in (the bell's).
      const labelled = badge.closest<HTMLElement>("[data-label]");
      if (labelled?.dataset.label) {
        labelled.setAttribute(labelled === badge ? "title" : "aria-label", labelFor(labelled.dataset.label, html.lang, count));
      }
    }
    window.dispatchEvent(new CustomEvent(UNREAD_EVENT, { detail: { ...event, grew: event.total > total } }));
    total = event.total;
  };
  openLive<LiveEvent>("/live/inbox", { onEvent: (event) => event.type === "unread" && show(event) });
}

/** The service worker keeps scripts for the next visit and shows the offline page; it starts after the page has loaded. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register("/sw.js")
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => registration.active?.postMessage({ language: html.lang }))
      .catch((error) => console.error("service worker not registered", error));
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/**
 * A page the browser prefetched while the pointer rested on its link recorded nothing then (a view,
 * a tab, a search; isPrefetch on the server): now that it is open, it is asked for once more, as a
 * visit. Made longer ago than PREFETCH_FRESH_MS (by the server's clock, from that answer's Date), it
 * is loaded again instead: what it shows may have changed.
 */
function visitIfPrefetched() {
  const [entry] = performance.getEntriesByType("navigation") as (PerformanceNavigationTiming & { deliveryType?: string })[];
  if (entry?.deliveryType !== "navigational-prefetch") return;
  fetch(location.href, { headers: { Accept: "text/html" } })
    .then((answer) => {
      const now = Date.parse(answer.headers.get("Date") ?? "");
      if (now - Number(html.dataset.served) > PREFETCH_FRESH_MS) location.reload();
    })
    .catch(() => {});
}

/** Where React hydrates the page, the drafts wait for it (forms holding state in React hear them come back). */
const hydrated = () =>
  new Promise<void>((resolve) => {
    if (!html.hasAttribute("data-hydrate") || html.hasAttribute("data-hydrated")) resolve();
    else document.addEventListener("hydrated", () => resolve(), { once: true });
  });

listenForClientErrors();
closeNotices();
sidebar();
tagsBar();
logout();
confirmForms();
liveBadges();
registerServiceWorker();
visitIfPrefetched();
hydrated().then(() => {
  const main = document.querySelector<HTMLElement>("main[data-drafts]");
  if (html.hasAttribute("data-guest")) clearDrafts();
  else if (main) keepDrafts(main, `${main.dataset.drafts}:${location.pathname}${location.search}`);
  // Everything a member can do on the page works now; the page's own modules ran before this one.
  // The mark is when, for the bench (scripts/bench.mjs).
  html.dataset.interactive = "";
  performance.mark("interactive");
});
