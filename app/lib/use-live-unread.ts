import { useEffect, useRef, useState } from "react";
import type { LiveEvent } from "~/lib/shapes";
import { useLiveSocket } from "./live-socket";

/**
 * The unread total: the server's on every page load, then live from the member's inbox socket.
 * `onMore` runs when it grows (a new message somewhere), so a page that lists conversations can refresh.
 */
export function useLiveUnread(initial: number, onMore?: () => void) {
  const [unread, setUnread] = useState(initial);
  const last = useRef(initial);
  useEffect(() => {
    last.current = initial;
    setUnread(initial);
  }, [initial]);
  useLiveSocket<LiveEvent>("/live/inbox", (event) => {
    if (event.type !== "unread") return;
    if (event.total > last.current) onMore?.();
    last.current = event.total;
    setUnread(event.total);
  });
  return unread;
}
