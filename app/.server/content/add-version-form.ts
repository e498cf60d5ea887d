import { Refused } from "~/.server/refused";
import { versionSchema } from "~/lib/schemas/version";
import { completedUpload, releaseUpload } from "./chunked";
import type { CreateResult } from "./create-from-form";
import { receiveUpload, removeStored } from "./receive-upload";
import { makeVariants } from "./thumbnail-variants";
import { addVersion } from "./versions";

/**
 * A new version from a multipart post, for the page and the API alike: the file streamed in the same
 * post or (with JavaScript) a completed parts upload (`upload_id`), judged as an upload's is; the
 * thumbnail optional. Every failure leaves nothing stored but a parts upload, kept for the next try.
 */
export async function addVersionFromMultipart(
  request: Request,
  contentId: number,
  ownerId: number,
  now: number,
  later: (work: Promise<unknown>) => void,
): Promise<CreateResult> {
  let received: Awaited<ReturnType<typeof receiveUpload>>;
  try {
    received = await receiveUpload(request);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    const { field, key, status } = error;
    return { ok: false, status, fields: {}, fieldErrors: field ? { [field]: [key] } : {}, formErrors: field ? [] : [key] };
  }
  const uploadId = received.fields.upload_id;
  if (!received.file && uploadId) received.file = (await completedUpload(uploadId, ownerId)) ?? undefined;
  // Whatever of this post is in storage, unless it became the version (a parts upload stays for a retry).
  const discard = () => removeStored(uploadId ? { ...received, file: undefined } : received);
  const parsed = versionSchema.safeParse(received.fields);
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const name = String(issue.path[0] ?? "");
    fieldErrors[name] = [...(fieldErrors[name] ?? []), issue.message];
  }
  if (!received.file) fieldErrors.file = ["validation.fieldEmpty|field=fields.file"];
  if (!parsed.success || !received.file) {
    await discard();
    return { ok: false, status: 400, fields: received.fields, fieldErrors, formErrors: [] };
  }
  let added: { number: number; created: boolean };
  try {
    added = await addVersion(contentId, ownerId, parsed.data, received.file, received.thumbnail, now);
  } catch (error) {
    await discard();
    if (!(error instanceof Refused)) throw error;
    const { field, key, status } = error;
    return { ok: false, status, fields: received.fields, fieldErrors: field ? { [field]: [key] } : {}, formErrors: field ? [] : [key] };
  }
  // A repeat of a post that already made the version keeps nothing of its own.
  if (!added.created) await discard();
  if (uploadId) await releaseUpload(uploadId);
  const thumbnail = received.thumbnail?.key;
  if (added.created && thumbnail) later(makeVariants(thumbnail).catch((error) => console.error("thumbnail variants not made", error)));
  return { ok: true, id: added.number };
}
