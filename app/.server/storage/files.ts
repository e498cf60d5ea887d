/** Server-generated object keys: never a member's file name, so no path tricks reach R2. */
export function newFileKey(kind: "files" | "thumbnails", now = new Date()): string {
  const month = now.toISOString().slice(0, 7);
  return `${kind}/${month}/${crypto.randomUUID()}`;
}
