const MAX_BACKOFF_MS = 10_000;
/** The close code a socket gets when its session ended (logout, reset, expiry): reconnecting is pointless. */
export const SESSION_ENDED_CLOSE = 4401;

/** The window event the shell module sends when the unread totals change (a page listing conversations refreshes). */
export const UNREAD_EVENT = "live-unread";

export interface LiveHandlers<T> {
  onEvent(event: T): void;
  /** After every (re)connection: where a page catches up on what it missed. */
  onOpen?(): void;
  onClose?(): void;
}

export interface LiveConnection {
  /** Whether the socket took it. */
  send(data: unknown): boolean;
  stop(): void;
}

/**
 * A WebSocket to one of our /live paths that reconnects by itself (backoff 0.5 s doubling to 10 s,
 * at once when the browser comes back online). Without a framework, for the small modules.
 */
export function openLive<T>(path: string, handlers: LiveHandlers<T>): LiveConnection {
  let socket: WebSocket | null = null;
  let stopped = false;
  let backoff = 500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    clearTimeout(timer);
    if (stopped) return;
    const url = new URL(path, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      backoff = 500;
      handlers.onOpen?.();
    };
    ws.onmessage = (message) => {
      try {
        handlers.onEvent(JSON.parse(String(message.data)) as T);
      } catch (error) {
        console.error("live event", error);
      }
    };
    ws.onclose = (event) => {
      if (socket === ws) socket = null;
      handlers.onClose?.();
      if (stopped) return;
      // The session is over: a reload takes the member to the login page with the notice.
      if (event.code === SESSION_ENDED_CLOSE) return window.location.reload();
      timer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    };
  };
  const online = () => {
    if (!socket) connect();
  };
  connect();
  window.addEventListener("online", online);
  return {
    send(data) {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(data));
      return true;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", online);
      socket?.close(1000);
      socket = null;
    },
  };
}
