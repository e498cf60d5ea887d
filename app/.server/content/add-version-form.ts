import { Refused } from "~/.server/refused";
import { chosenLicense } from "~/lib/licenses";
import { versionSchema } from "~/lib/schemas/version";
import { releaseUpload } from "./chunked";
import { type CreateResult, issuesByField, keepingNothingOnFailure, receivedFiles, refusalOf } from "./create-from-form";
import { removeStored } from "./receive-upload";
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
  const post = await receivedFiles(request, ownerId);
  if ("ok" in post) return post;
  const { received, uploadId } = post;
  // Whatever of this post is in storage, unless it became the version (a parts upload stays for a retry).
  const discard = () => removeStored(uploadId ? { ...received, file: undefined } : received);
  return keepingNothingOnFailure(post, async (owned) => {
    const { license, license_other } = received.fields;
    const parsed = versionSchema.safeParse({ ...received.fields, license: chosenLicense(license, license_other) });
    const fieldErrors = issuesByField(parsed.error?.issues);
    if (!received.file) fieldErrors.file = ["validation.fieldEmpty|field=fields.file"];
    if (!parsed.success || !received.file) {
      await discard();
      return { ok: false, status: 400, fields: received.fields, fieldErrors, formErrors: [] };
    }
    let added: { number: number; created: boolean };
    try {
      added = await addVersion(contentId, ownerId, parsed.data, received.file, received.thumbnail, now);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      await discard();
      return refusalOf(error, received.fields);
    }
    if (added.created) owned();
    // A repeat of a post that already made the version keeps nothing of its own.
    else await discard();
    if (uploadId) await releaseUpload(uploadId);
    const thumbnail = received.thumbnail?.key;
    if (added.created && thumbnail) later(makeVariants(thumbnail).catch((error) => console.error("thumbnail variants not made", error)));
    return { ok: true, id: added.number };
  });
}
