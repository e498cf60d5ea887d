import { useCallback, useEffect, useRef, useState } from "react";

const MAX_BACKOFF_MS = 10_000;
/** The close code a socket gets when its session ended (logout, reset, expiry): reconnecting is pointless. */
export const SESSION_ENDED_CLOSE = 4401;

/**
 * A WebSocket to one of our /live paths that reconnects by itself (backoff 0.5 s doubling to 10 s,
 * at once when the browser comes back online). `onOpen` runs after every (re)connection, which is
 * where a page catches up on what it missed. Answers a `send` that says whether the socket took it.
 */
export function useLiveSocket<T>(path: string | null, onEvent: (event: T) => void, onOpen?: (send: (data: unknown) => boolean) => void) {
  const socket = useRef<WebSocket | null>(null);
  const handlers = useRef({ onEvent, onOpen });
  handlers.current = { onEvent, onOpen };
  const [connected, setConnected] = useState(false);
  const send = useCallback((data: unknown) => {
    if (socket.current?.readyState !== WebSocket.OPEN) return false;
    socket.current.send(JSON.stringify(data));
    return true;
  }, []);

  useEffect(() => {
    if (!path) return;
    let stopped = false;
    let backoff = 500;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      clearTimeout(timer);
      if (stopped) return;
      const url = new URL(path, window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(url);
      socket.current = ws;
      ws.onopen = () => {
        backoff = 500;
        setConnected(true);
        handlers.current.onOpen?.(send);
      };
      ws.onmessage = (message) => {
        try {
          handlers.current.onEvent(JSON.parse(String(message.data)) as T);
        } catch (error) {
          console.error("live event", error);
        }
      };
      ws.onclose = (event) => {
        setConnected(false);
        if (socket.current === ws) socket.current = null;
        if (stopped) return;
        // The session is over: a reload takes the member to the login page with the notice.
        if (event.code === SESSION_ENDED_CLOSE) return window.location.reload();
        timer = setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      };
    };
    const online = () => {
      if (!socket.current) connect();
    };
    connect();
    window.addEventListener("online", online);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", online);
      socket.current?.close(1000);
      socket.current = null;
    };
  }, [path, send]);

  return { connected, send };
}
