import { useEffect, useState } from "react";
import type { LiveEvent } from "~/server/messaging/live";
import { useLiveSocket } from "./live-socket";

/** The unread total: the server's on every page load, then live from the member's inbox socket. */
export function useLiveUnread(initial: number) {
  const [unread, setUnread] = useState(initial);
  useEffect(() => setUnread(initial), [initial]);
  useLiveSocket<LiveEvent>("/live/inbox", (event) => {
    if (event.type === "unread") setUnread(event.total);
  });
  return unread;
}
