import { MEMBER_FILE_POLICY } from "~/.server/content/member-file-policy";

/** How an ID photo is served, to its owner or a reviewer, page or API alike: never cached, sandboxed, not sniffed. */
export const photoHeaders = (object: R2ObjectBody) => ({
  "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": MEMBER_FILE_POLICY,
  "Cross-Origin-Resource-Policy": "same-origin",
});
