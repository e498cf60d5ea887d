import { useHydrated } from "~/lib/use-hydrated";

/**
 * The browser's PDF viewer in a frame. With JavaScript it opens once the page is hydrated: the viewer
 * runs on the page's own thread and its file shares the network, which on a slow phone delayed the
 * page's buttons by a few hundred milliseconds. Without JavaScript it opens at once. Its box is
 * there from the start, so nothing moves when it opens.
 */
export function PdfViewer({ src, title, fallback }: { src: string; title: string; fallback: string }) {
  const hydrated = useHydrated();
  const frame = (
    <iframe src={src} title={title} className="h-full w-full" data-testid="pdf-viewer">
      {fallback}
    </iframe>
  );
  return <div className="h-[70vh] w-full bg-white">{hydrated ? frame : <noscript>{frame}</noscript>}</div>;
}
