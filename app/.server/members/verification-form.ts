import { parseWithZod } from "@conform-to/zod/v4";
import { readCappedBytes } from "~/.server/http/body";
import { VERIFICATION_PHOTOS, type VerificationKind } from "~/lib/choices";
import { VERIFICATION_BODY_MB, VERIFICATION_EXTRA_MAX } from "~/lib/limits";
import { verificationFields } from "~/lib/schemas/verification";

/**
 * A verification as posted (the page's multipart form, or the API's): the body read up to its
 * limit, the fields checked with Conform, the photos' bytes by name. Null when the body is too large.
 */
export async function readVerification(request: Request, kind: VerificationKind) {
  const bytes = await readCappedBytes(request, VERIFICATION_BODY_MB * 1024 * 1024);
  if (bytes === null) return null;
  // A body that is not a form (JSON, garbage) reads as an empty one: every field is then refused as missing.
  const form = await new Request(request.url, { method: "POST", body: bytes, headers: request.headers })
    .formData()
    .catch(() => new FormData());
  const submission = parseWithZod(form, { schema: verificationFields[kind] });
  const bytesOf = async (name: string) =>
    Promise.all(
      form
        .getAll(name)
        .filter((value): value is File => typeof value !== "string" && value.size > 0)
        .map(async (file) => new Uint8Array(await file.arrayBuffer())),
    );
  const files: Record<string, Uint8Array[]> = {};
  for (const name of VERIFICATION_PHOTOS[kind]) files[name] = await bytesOf(name);
  files.extra = kind === "personal" ? (await bytesOf("extra")).slice(0, VERIFICATION_EXTRA_MAX) : [];
  return { submission, files };
}
