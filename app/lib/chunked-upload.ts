// Browser side of the resumable upload: 8 MiB parts with progress, retried after a dropped
// connection, resumable after a reload (the upload's id is kept in localStorage per file).

export class UploadStopped extends Error {}

interface Status {
  id: string;
  part_size: number;
  parts: number[];
}

const storageKey = (file: File) => `upload:${file.name}:${file.size}:${file.lastModified}`;

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; message?: string };
  // The refusal in the member's language (the server translates it), else its key.
  if (!response.ok) throw new UploadStopped(body.message ?? body.error ?? response.statusText);
  return body;
}

function putPart(url: string, blob: Blob, signal: AbortSignal, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = xhr.statusText;
      try {
        const body = JSON.parse(xhr.responseText);
        message = body.message ?? body.error ?? message;
      } catch {}
      // 4xx: the server refused this file; retrying would not help.
      reject(xhr.status >= 400 && xhr.status < 500 ? new UploadStopped(message) : new Error(message));
    };
    xhr.onerror = () => reject(new Error("network"));
    xhr.onabort = () => reject(new UploadStopped("aborted"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(blob);
  });
}

async function withRetries(work: () => Promise<void>, signal: AbortSignal, tries = 8) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UploadStopped || signal.aborted || attempt >= tries) throw error;
      await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** (attempt - 1), 8000)));
    }
  }
}

/** Uploads (or resumes) `file`; resolves with the completed upload's id. */
export async function uploadInParts(file: File, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<string> {
  let status: Status | null = null;
  const saved = localStorage.getItem(storageKey(file));
  if (saved) {
    const response = await fetch(`/uploads/${saved}`, { signal });
    if (response.ok) status = await response.json();
  }
  if (!status) {
    status = await json<Status>(
      await fetch("/uploads", {
        method: "POST",
        body: JSON.stringify({ size: file.size }),
        headers: { "Content-Type": "application/json" },
        signal,
      }),
    );
    localStorage.setItem(storageKey(file), status.id);
  }
  const { id, part_size } = status;
  const done = new Set(status.parts);
  const count = Math.max(1, Math.ceil(file.size / part_size));
  let sent = [...done].reduce((sum, n) => sum + Math.min(part_size, file.size - (n - 1) * part_size), 0);
  onProgress(sent / file.size);
  for (let n = 1; n <= count; n++) {
    if (done.has(n)) continue;
    const blob = file.slice((n - 1) * part_size, Math.min(n * part_size, file.size));
    await withRetries(
      () => putPart(`/uploads/${id}/parts/${n}`, blob, signal, (loaded) => onProgress((sent + loaded) / file.size)),
      signal,
    );
    sent += blob.size;
    onProgress(sent / file.size);
  }
  await json(await fetch(`/uploads/${id}/complete`, { method: "POST", signal }));
  localStorage.removeItem(storageKey(file));
  return id;
}

/** Cancels: stops sending and lets the server drop what it has. */
export async function cancelUpload(file: File) {
  const id = localStorage.getItem(storageKey(file));
  localStorage.removeItem(storageKey(file));
  if (id) await fetch(`/uploads/${id}`, { method: "DELETE" }).catch(() => {});
}
