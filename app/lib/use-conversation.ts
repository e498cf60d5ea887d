import { useEffect, useRef, useState } from "react";
import type { LiveEvent, Message } from "~/lib/shapes";
import { useLiveSocket } from "./live-socket";

export interface Pending {
  client_id: string;
  body: string;
}

/** Messages by id, oldest first, each once. */
function merge(current: Message[], incoming: Message[]) {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

const pendingKey = (conversationId: number) => `pending-messages:${conversationId}`;

/** Pending messages survive a reload in this tab (sessionStorage), so a resend can still deliver them. */
function loadPending(conversationId: number): Pending[] {
  try {
    return JSON.parse(sessionStorage.getItem(pendingKey(conversationId)) ?? "[]") as Pending[];
  } catch {
    return [];
  }
}

/**
 * One open conversation with JavaScript: new messages arrive over the room's socket; after every
 * (re)connection the page asks for everything after the last message it has and resends what is
 * still pending (same client id, so nothing is stored twice); messages from the other member are
 * marked read while the page is visible.
 */
export function useConversation(conversationId: number, me: number, initial: Message[]) {
  const [messages, setMessages] = useState(initial);
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);
  const state = useRef({ messages, pending });
  state.current = { messages, pending };

  // A new loader answer (after a form post, or older messages) joins what the page already has.
  useEffect(() => setMessages((current) => merge(current, initial)), [initial]);

  // What was still pending when this tab last left the conversation is sent again (same client ids).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per conversation; live.send is stable
  useEffect(() => {
    const stored = loadPending(conversationId);
    setPending(stored);
    for (const p of stored) live.send({ type: "send", ...p }); // if the socket is not open yet, onOpen sends them
  }, [conversationId]);
  useEffect(() => {
    if (pending.length) sessionStorage.setItem(pendingKey(conversationId), JSON.stringify(pending));
    else sessionStorage.removeItem(pendingKey(conversationId));
  }, [conversationId, pending]);

  // Messages that arrived while the tab was hidden are read when it is shown again.
  useEffect(() => {
    const shown = () => {
      const last = state.current.messages.filter((m) => m.sender_id !== me).at(-1);
      if (document.visibilityState === "visible" && last) live.send({ type: "read", upTo: last.id });
    };
    document.addEventListener("visibilitychange", shown);
    return () => document.removeEventListener("visibilitychange", shown);
  });

  const receive = (incoming: Message[]) => {
    if (!incoming.length) return;
    setMessages((current) => merge(current, incoming));
    const mine = new Set(incoming.filter((m) => m.sender_id === me).map((m) => m.client_id));
    setPending((current) => current.filter((p) => !mine.has(p.client_id)));
    const fromOther = incoming.filter((m) => m.sender_id !== me).at(-1);
    if (fromOther && document.visibilityState === "visible") live.send({ type: "read", upTo: fromOther.id });
  };

  const live = useLiveSocket<LiveEvent>(
    `/live/conversations/${conversationId}`,
    (event) => {
      if (event.type === "message" || event.type === "ack") receive([event.message]);
      else if (event.type === "sync") {
        receive(event.messages);
        if (event.has_more) live.send({ type: "sync", after: event.messages.at(-1)?.id ?? 0 });
      } else if (event.type === "error") {
        setError(event.error);
        setPending((current) => current.filter((p) => p.client_id !== event.client_id));
      }
    },
    (send) => {
      send({ type: "sync", after: state.current.messages.at(-1)?.id ?? 0 });
      for (const p of state.current.pending) send({ type: "send", ...p });
    },
  );

  /**
   * Sends over the socket. Offline, the message is kept as pending (in this tab's storage too) and
   * sent when the socket opens again; false when the socket is down while online (the form then
   * posts as without JavaScript).
   */
  const send = (body: string) => {
    const message = { client_id: crypto.randomUUID(), body };
    if (!live.send({ type: "send", ...message }) && navigator.onLine) return false;
    setError(null);
    setPending((current) => [...current, message]);
    return true;
  };

  return { messages, pending, error, connected: live.connected, send };
}
