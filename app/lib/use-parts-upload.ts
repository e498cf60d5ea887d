import { type FormEvent, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { cancelUpload, UploadStopped, uploadInParts } from "./chunked-upload";

/**
 * A multipart form whose `file` goes first, with JavaScript, in resumable parts with progress and
 * cancel; then the form is posted with `upload_id` instead of the file (the upload and new-version
 * forms). Without a chosen file, or without JavaScript, the form posts as it is.
 */
export function usePartsUpload() {
  const submit = useSubmit();
  const [progress, setProgress] = useState<number | null>(null);
  const [partsError, setPartsError] = useState<string | null>(null);
  const running = useRef<{ controller: AbortController; file: File } | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const element = event.currentTarget;
    const file = (element.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
    if (!file) return;
    event.preventDefault();
    const controller = new AbortController();
    running.current = { controller, file };
    setPartsError(null);
    setProgress(0);
    try {
      const uploadId = await uploadInParts(file, controller.signal, setProgress);
      const formData = new FormData(element);
      formData.delete("file");
      formData.set("upload_id", uploadId);
      submit(formData, { method: "post", encType: "multipart/form-data", action: element.getAttribute("action") ?? undefined });
    } catch (error) {
      // The server's refusal is a message key; anything else (the network) is "the request failed".
      if (!controller.signal.aborted) setPartsError(error instanceof UploadStopped ? error.message : "notify.requestFailed");
    } finally {
      running.current = null;
      setProgress(null);
    }
  }

  function cancel() {
    const current = running.current;
    if (!current) return;
    current.controller.abort();
    void cancelUpload(current.file);
  }

  return { onSubmit, progress, partsError, cancel };
}
