// The upload form (docs/decisions/0046): with JavaScript the chosen file goes first, in resumable
// parts with progress and cancel (lib/chunked-upload.ts), then the form is posted with `upload_id`
// in place of the file. Without JavaScript, or without a chosen file, the form posts as it is.
// What sends the parts is fetched when a file is chosen (docs/decisions/0047): the page carries
// only what takes the submit.
import { closest } from "./parts/dom";
import { fieldError } from "./parts/field-error";
import { onDemand } from "./parts/on-demand";

type Parts = typeof import("./on-demand/chunked-upload");
const parts = onDemand<Parts>(__ON_DEMAND__["chunked-upload"]);

let running: { controller: AbortController; file: File } | null = null;

document.addEventListener("change", (event) => {
  if (closest(event.target, "[data-parts-upload] input[type=file][name=file]")) void parts();
});

document.addEventListener("submit", async (event) => {
  const form = event.target as HTMLFormElement;
  const input = form.elements.namedItem("file");
  const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
  // "Fill from DOI" posts the fields only; the server answers the form filled in.
  if (!form.matches("[data-parts-upload]") || !file || !(input instanceof HTMLInputElement)) return;
  if ((event as SubmitEvent).submitter?.getAttribute("value") === "prefill") return;
  event.preventDefault();
  const progress = form.querySelector<HTMLElement>("[data-testid=upload-progress]");
  const bar = progress?.querySelector("progress");
  const percent = progress?.querySelector("[data-percent]");
  const submit = form.querySelector<HTMLElement>("[data-upload-submit]");
  const show = (fraction: number) => {
    if (bar) bar.value = Math.round(fraction * 100);
    if (percent) percent.textContent = `${Math.round(fraction * 100)}%`;
  };
  const controller = new AbortController();
  running = { controller, file };
  submit?.setAttribute("hidden", "");
  progress?.removeAttribute("hidden");
  show(0);
  let sender: Parts | undefined;
  try {
    sender = await parts();
    const id = await sender.uploadInParts(file, controller.signal, show);
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "upload_id";
    field.value = id;
    form.appendChild(field);
    input.disabled = true; // the file went up in parts: not again in the post
    form.submit();
  } catch (error) {
    progress?.setAttribute("hidden", "");
    submit?.removeAttribute("hidden");
    // The server's refusal comes in the member's language; anything else (the network) is "the request failed".
    const refused = sender && error instanceof sender.UploadStopped;
    if (!controller.signal.aborted) fieldError(input, refused ? (error as Error).message : (progress?.dataset.failed ?? ""));
  } finally {
    running = null;
  }
});

document.addEventListener("click", (event) => {
  if (!closest(event.target, "[data-cancel-upload]") || !running) return;
  const { controller, file } = running;
  controller.abort();
  void parts().then((sender) => sender.cancelUpload(file));
});
