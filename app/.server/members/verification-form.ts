import { parseWithZod } from "@conform-to/zod/v4";
import { drain, joinChunks, type Posted } from "~/.server/http/body";
import { MultipartError, readMultipart } from "~/.server/http/multipart";
import { Refused } from "~/.server/refused";
import { VERIFICATION_PHOTOS, type VerificationKind } from "~/lib/choices";
import { VERIFICATION_BODY_MB, VERIFICATION_EXTRA_MAX, VERIFICATION_PHOTO_MB } from "~/lib/limits";
import { verificationFields } from "~/lib/schemas/verification";
import {
  discardPhotos,
  latestVerification,
  mayVerify,
  PHOTO_TOO_LARGE,
  type PostedPhoto,
  photoRefusals,
  storePhoto,
  submitVerification,
} from "./verification";

const BODY_MAX = VERIFICATION_BODY_MB * 1024 * 1024;
const PHOTO_MAX = VERIFICATION_PHOTO_MB * 1024 * 1024;
const FIELD_MAX = 64 * 1024;
const PARTS_MAX = 32;

class TooLarge extends Error {}

/**
 * A verification as posted (the page's multipart form, or the API's), read part by part as it
 * arrives: each photo is judged and stored before the next part is read, so at most one photo (5 MB)
 * is held at a time, never the whole body (issue 30). The text fields are checked with Conform.
 * Null when the body is over its limit (nothing is kept then). A body that is not a form (JSON,
 * garbage) reads as an empty one: every field is then refused as missing. The caller keeps the
 * photos with submitVerification or removes them with discardPhotos. `named` gives a part's name as
 * the form names it (the API takes snake_case names).
 */
export async function readVerification(
  { body, contentType, declaredLength }: Posted,
  kind: VerificationKind,
  named = (name: string) => name,
) {
  const form = new FormData();
  const photos: Record<string, PostedPhoto[]> = {};
  const wanted: Record<string, number> = Object.fromEntries(VERIFICATION_PHOTOS[kind].map((name) => [name, 1]));
  if (kind === "personal") wanted.extra = VERIFICATION_EXTRA_MAX;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  let total = 0;
  let parts = 0;

  /** A part's bytes, up to `keep` (null past it: the rest is read and dropped); the body's limit counts every byte. */
  async function readPart(body: ReadableStream<Uint8Array>, keep: number): Promise<Uint8Array | null> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = body.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        total += next.value.byteLength;
        size += next.value.byteLength;
        if (total > BODY_MAX) throw new TooLarge();
        if (size <= keep) chunks.push(next.value);
      }
    } finally {
      reader.releaseLock();
    }
    return size > keep ? null : joinChunks(chunks, size);
  }

  try {
    if (declaredLength > BODY_MAX) throw new TooLarge();
    if (!boundary || !body) {
      if (body) await readPart(body, 0);
      return { submission: parseWithZod(new FormData(), { schema: verificationFields[kind] }), photos };
    }
    await readMultipart(body, boundary[1] ?? boundary[2] ?? "", async (part) => {
      if (++parts > PARTS_MAX) throw new TooLarge();
      const name = named(part.name);
      if (part.filename === undefined) {
        const bytes = await readPart(part.body, FIELD_MAX);
        if (bytes === null) throw new TooLarge();
        form.append(name, new TextDecoder().decode(bytes));
        return;
      }
      const taken = photos[name] ?? [];
      if (taken.length >= (wanted[name] ?? 0)) {
        await readPart(part.body, 0);
        return;
      }
      const bytes = await readPart(part.body, PHOTO_MAX);
      if (bytes?.byteLength === 0) return; // an empty file input: no photo
      photos[name] = [...taken, bytes ? await storePhoto(bytes) : PHOTO_TOO_LARGE];
    });
  } catch (error) {
    await discardPhotos(photos);
    if (error instanceof MultipartError)
      return { submission: parseWithZod(new FormData(), { schema: verificationFields[kind] }), photos: {} };
    if (!(error instanceof TooLarge)) throw error;
    return null;
  } finally {
    // What is left (the rest of a refused body, or an epilogue) is read and dropped, so the client reads the answer.
    if (body && !body.locked) await drain(body.getReader());
  }
  return { submission: parseWithZod(form, { schema: verificationFields[kind] }), photos };
}

/**
 * A verification posted by its member, the page's and the API's one way in: nothing is read (photos
 * are megabytes) while one is open (409; the insert decides races), a body over its limit is refused
 * (413), and the fields' and the photos' refusals come together, with what was typed, at the first
 * submit (not once the fields are right). `named` as readVerification's.
 */
export async function submitPostedVerification(
  posted: Posted,
  userId: number,
  kind: VerificationKind,
  now: number,
  named?: (name: string) => string,
): Promise<void> {
  if (!mayVerify(await latestVerification(userId))) throw new Refused("verification.notOpen", { status: 409 });
  const read = await readVerification(posted, kind, named);
  if (!read) throw new Refused("errorPage.titleTooLarge", { status: 413 });
  const { submission, photos } = read;
  if (submission.status !== "success") {
    await discardPhotos(photos);
    const typed = Object.entries(submission.payload).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    const fields = Object.entries(submission.error ?? {}).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]));
    throw Refused.inFields({ ...Object.fromEntries(fields), ...photoRefusals(kind, photos) }, { sent: Object.fromEntries(typed) });
  }
  await submitVerification(userId, kind, submission.value, photos, now);
}
