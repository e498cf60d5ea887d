/** Server-generated object keys: never a member's file name, so no path tricks reach R2. */
export function newFileKey(kind: "files" | "thumbnails" | "private", now = new Date()): string {
  const month = now.toISOString().slice(0, 7);
  return `${kind}/${month}/${crypto.randomUUID()}`;
}

export interface StoredFile {
  body: ReadableStream;
  size: number;
  etag: string;
  contentType: string;
  range?: { offset: number; length: number };
}

/** Streams a body of known length into R2 (R2 refuses streams of unknown length). */
export async function putFile(bucket: R2Bucket, key: string, body: ReadableStream | ArrayBuffer | string, contentType: string) {
  return bucket.put(key, body, { httpMetadata: { contentType } });
}

/** Reads a stored file, or the byte range asked for (offset, length). */
export async function getFile(bucket: R2Bucket, key: string, range?: { offset: number; length: number }): Promise<StoredFile | null> {
  const object = await bucket.get(key, range ? { range } : undefined);
  if (!object) return null;
  return {
    body: object.body,
    size: object.size,
    etag: object.httpEtag,
    contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
    range,
  };
}

export async function deleteFiles(bucket: R2Bucket, keys: string[]) {
  if (keys.length) await bucket.delete(keys);
}
