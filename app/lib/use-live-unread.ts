import { useEffect, useRef, useState } from "react";
import type { LiveEvent } from "~/lib/shapes";
import { useLiveSocket } from "./live-socket";

export interface Unread {
  /** Unread messages (the sidebar's badge). */
  total: number;
  /** Unread notifications (the header's bell). */
  notifications: number;
}

/**
 * The unread totals: the server's on every page load, then live from the member's inbox socket.
 * `onMore` runs when the messages' total grows (a new message somewhere), so a page that lists
 * conversations can refresh.
 */
export function useLiveUnread(initial: Unread, onMore?: () => void) {
  const [unread, setUnread] = useState(initial);
  const last = useRef(initial.total);
  useEffect(() => {
    last.current = initial.total;
    setUnread({ total: initial.total, notifications: initial.notifications });
  }, [initial.total, initial.notifications]);
  useLiveSocket<LiveEvent>("/live/inbox", (event) => {
    if (event.type !== "unread") return;
    if (event.total > last.current) onMore?.();
    last.current = event.total;
    setUnread({ total: event.total, notifications: event.notifications });
  });
  return unread;
}
