import { useEffect, useRef } from "react";
import { ServerFragment } from "~/components/server-fragment";

/**
 * A video's transcript (its HTML made on the server, transcript.server.tsx). With JavaScript, a
 * line's link seeks the player on the page instead of loading it again; without, the link opens
 * the page with the player starting at that second.
 */
export function Transcript({ html }: { html: string }) {
  const section = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = section.current;
    const seek = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[data-t]") : null;
      const video = document.querySelector<HTMLVideoElement>("video[data-testid=video]");
      if (!link || !video || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      video.currentTime = Number(link.dataset.t);
      video.play().catch(() => {});
      history.replaceState(history.state, "", link.href);
    };
    element?.addEventListener("click", seek);
    return () => element?.removeEventListener("click", seek);
  }, []);
  return (
    <ServerFragment
      ref={section}
      html={html}
      role="region"
      aria-labelledby="transcript-heading"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4"
      data-testid="transcript"
    />
  );
}
