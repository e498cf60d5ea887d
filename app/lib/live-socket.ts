import { useCallback, useEffect, useRef, useState } from "react";
import { type LiveConnection, openLive } from "./live-connection";

/**
 * A page's live socket (lib/live-connection.ts) while it is shown. `onOpen` runs after every
 * (re)connection. Answers a `send` that says whether the socket took it.
 */
export function useLiveSocket<T>(path: string | null, onEvent: (event: T) => void, onOpen?: (send: (data: unknown) => boolean) => void) {
  const connection = useRef<LiveConnection | null>(null);
  const handlers = useRef({ onEvent, onOpen });
  handlers.current = { onEvent, onOpen };
  const [connected, setConnected] = useState(false);
  const send = useCallback((data: unknown) => connection.current?.send(data) ?? false, []);

  useEffect(() => {
    if (!path) return;
    const live = openLive<T>(path, {
      onEvent: (event) => handlers.current.onEvent(event),
      onOpen: () => {
        setConnected(true);
        handlers.current.onOpen?.(send);
      },
      onClose: () => setConnected(false),
    });
    connection.current = live;
    return () => {
      live.stop();
      connection.current = null;
    };
  }, [path, send]);

  return { connected, send };
}
