// An open conversation, live (docs/decisions/0046): new messages arrive over the room's socket; after
// every (re)connection the page asks for everything after the last message it has and resends what
// is still pending (same client id, so nothing is stored twice); messages from the other member are
// marked read while the page is visible. New bubbles are the page's own templates, filled in.
// Without JavaScript the composer posts and the next load shows the history.
import type { TFunction } from "i18next";
import { linkParts } from "~/lib/link-parts";
import { openLive, UNREAD_EVENT } from "~/lib/live-connection";
import { labelFor } from "~/lib/live-label";
import { relativeTime } from "~/lib/relative-time";
import type { LiveEvent, Message } from "~/lib/shapes";

interface Pending {
  client_id: string;
  body: string;
}

const section = document.querySelector<HTMLElement>("[data-testid=conversation]");
const list = section?.querySelector<HTMLOListElement>("[data-testid=messages]");
const composer = section?.querySelector<HTMLFormElement>("[data-testid=composer]");

/** The page's words for a relative time, as lib/relative-time.ts asks for them. */
function timeWords(labels: string, language: string) {
  const words = JSON.parse(labels) as Record<string, string>;
  return ((key: string, options?: { count?: number }) => labelFor(words[key] ?? "{}", language, options?.count ?? 1)) as TFunction;
}

/** A member's text as MessageText renders it: escaped, with http(s) addresses as links. */
function fillText(paragraph: Element, text: string) {
  paragraph.replaceChildren(
    ...linkParts(text).map((part) => {
      if (!part.href) return document.createTextNode(part.text);
      const link = document.createElement("a");
      link.href = part.href;
      link.target = "_blank";
      link.rel = "noopener noreferrer nofollow ugc";
      link.className = "underline";
      link.textContent = part.text;
      return link;
    }),
  );
}

function start(section: HTMLElement, list: HTMLOListElement, composer: HTMLFormElement) {
  const id = Number(section.dataset.conversation);
  const me = Number(section.dataset.me);
  const language = document.documentElement.lang;
  const t = timeWords(list.dataset.times ?? "{}", language);
  const errors = JSON.parse(composer.dataset.errors ?? "{}") as Record<string, string>;
  const bubble = (kind: "mine" | "theirs" | "pending") =>
    section.querySelector<HTMLTemplateElement>(`template[data-bubble=${kind}]`)?.content.firstElementChild?.cloneNode(true) as HTMLElement;
  const shown = () => [...list.querySelectorAll<HTMLElement>("li[data-id]")];
  const lastId = () => Number(shown().at(-1)?.dataset.id ?? 0);
  const storageKey = `pending-messages:${id}`;
  let pending: Pending[] = [];

  /** A stored message in its place by id, once. */
  function place(message: Message) {
    const later = shown().find((item) => Number(item.dataset.id) >= message.id);
    if (later && Number(later.dataset.id) === message.id) return;
    const item = bubble(message.sender_id === me ? "mine" : "theirs");
    item.dataset.id = String(message.id);
    item.dataset.sender = String(message.sender_id);
    fillText(item.querySelector("p") as Element, message.body);
    const time = item.querySelector("time") as HTMLTimeElement;
    const date = new Date(message.created_at);
    time.dateTime = time.title = date.toISOString();
    time.textContent = relativeTime(date, new Date(), t, language);
    const report = item.querySelector<HTMLElement>("[data-testid^=report-message-]");
    if (report) {
      report.dataset.testid = `report-message-${message.id}`;
      const target = report.querySelector<HTMLInputElement>("[name=target_id]");
      if (target) target.value = String(message.id);
    }
    const firstPending = list.querySelector("[data-testid=pending-message]");
    list.insertBefore(item, later ?? firstPending);
  }

  function showPending() {
    for (const item of list.querySelectorAll("[data-testid=pending-message]")) item.remove();
    for (const message of pending) {
      const item = bubble("pending");
      fillText(item.querySelector("p") as Element, message.body);
      list.appendChild(item);
    }
    if (pending.length) sessionStorage.setItem(storageKey, JSON.stringify(pending));
    else sessionStorage.removeItem(storageKey);
  }

  function showError(text: string) {
    const note = composer.querySelector("[data-testid=message-error]");
    if (note) note.textContent = text;
  }

  /** The other member's messages shown are read, while the page is visible. */
  const read = () => {
    const last = shown()
      .filter((item) => Number(item.dataset.sender) !== me)
      .at(-1);
    if (last && document.visibilityState === "visible") live.send({ type: "read", upTo: Number(last.dataset.id) });
  };

  function receive(incoming: Message[]) {
    if (!incoming.length) return;
    for (const message of incoming) place(message);
    const mine = new Set(incoming.filter((m) => m.sender_id === me).map((m) => m.client_id));
    pending = pending.filter((p) => !mine.has(p.client_id));
    showPending();
    if (incoming.some((m) => m.sender_id !== me)) read();
  }

  const live = openLive<LiveEvent>(`/live/conversations/${id}`, {
    onEvent(event) {
      if (event.type === "message" || event.type === "ack") receive([event.message]);
      else if (event.type === "sync") {
        receive(event.messages);
        if (event.has_more) live.send({ type: "sync", after: lastId() });
      } else if (event.type === "error") {
        showError(errors[event.error] ?? errors["notify.requestFailed"] ?? event.error);
        pending = pending.filter((p) => p.client_id !== event.client_id);
        showPending();
      }
    },
    onOpen() {
      section.dataset.live = "connected";
      live.send({ type: "sync", after: lastId() });
      for (const p of pending) live.send({ type: "send", ...p });
    },
    onClose() {
      section.dataset.live = "disconnected";
    },
  });

  // What was still pending when this tab last left the conversation is shown, and sent once the socket opens.
  try {
    pending = JSON.parse(sessionStorage.getItem(storageKey) ?? "[]") as Pending[];
  } catch {
    pending = [];
  }
  showPending();

  // Messages that arrived while the tab was hidden are read when it is shown again.
  document.addEventListener("visibilitychange", read);

  // With the socket open the message goes live; offline it waits as pending. Otherwise, and for an
  // empty message (the server's refusal then shows beside the field), the form posts.
  composer.addEventListener("submit", (event) => {
    const field = composer.elements.namedItem("body") as HTMLTextAreaElement;
    const body = field.value.trim();
    if (!body) return;
    const message = { client_id: crypto.randomUUID(), body };
    if (!live.send({ type: "send", ...message }) && navigator.onLine) return;
    event.preventDefault();
    field.value = "";
    showError("");
    pending.push(message);
    showPending();
  });
}

/** A new message anywhere (the shell's live unread total grew): this page's list, read again, replaces the one shown. */
function refreshList() {
  window.addEventListener(UNREAD_EVENT, async (event) => {
    const nav = document.querySelector("[data-conversation-list]");
    if (!nav || !(event as CustomEvent<{ grew: boolean }>).detail.grew) return;
    try {
      const res = await fetch(window.location.href, { headers: { Accept: "text/html" } });
      if (!res.ok) throw new Error(`conversation list: ${res.status}`);
      const fresh = new DOMParser().parseFromString(await res.text(), "text/html").querySelector("[data-conversation-list]");
      if (fresh) nav.replaceChildren(...[...fresh.childNodes].map((node) => document.importNode(node, true)));
    } catch (error) {
      console.error(error); // the next load shows it
    }
  });
}

refreshList();
if (section && list && composer) start(section, list, composer);
