/**
 * The browser's PDF viewer in a frame. With JavaScript the item's module (app/enhance/item.ts) opens
 * it once the page has loaded: the viewer runs on the page's own thread and its file shares the
 * network, which on a slow phone delayed the page's buttons. Without JavaScript it opens at once.
 * Its box is there from the start, so nothing moves when it opens. On a phone with script there is
 * no frame (the page hides its box): a phone's browser shows no PDF in a frame (Chrome on Android
 * has no viewer there), Chromium's viewer moved the whole page as it opened in a phone's emulation,
 * and a member on a slow network fetches the file only when they open or download it.
 */
export function PdfViewer({ src, title, fallback }: { src: string; title: string; fallback: string }) {
  return (
    <div className="h-[70vh] w-full bg-white" data-pdf-viewer data-src={src} data-title={title} data-fallback={fallback}>
      <noscript>
        <iframe src={src} title={title} className="h-full w-full" data-testid="pdf-viewer">
          {fallback}
        </iframe>
      </noscript>
    </div>
  );
}
