import type { Posted } from "~/.server/http/body";
import { issuesByField, Refused } from "~/.server/refused";
import { chosenLicense } from "~/lib/licenses";
import { versionSchema } from "~/lib/schemas/version";
import { releaseUpload } from "./chunked";
import { keepingNothingOnFailure, receivedFiles } from "./create-from-form";
import { removeStored } from "./receive-upload";
import { makeVariants } from "./thumbnail-variants";
import { addVersion } from "./versions";

/**
 * A new version from a multipart post, for the page and the API alike: the file streamed in the same
 * post or (with JavaScript) a completed parts upload (`upload_id`), judged as an upload's is; the
 * thumbnail optional. Every failure leaves nothing stored but a parts upload, kept for the next try.
 */
export async function addVersionFromMultipart(
  posted: Posted,
  contentId: number,
  ownerId: number,
  now: number,
  later: (work: Promise<unknown>) => void,
): Promise<{ number: number }> {
  const post = await receivedFiles(posted, ownerId);
  const { received, uploadId } = post;
  // Whatever of this post is in storage, unless it became the version (a parts upload stays for a retry).
  const discard = () => removeStored(uploadId ? { ...received, file: undefined } : received);
  return keepingNothingOnFailure(post, async (owned) => {
    const { license, license_other } = received.fields;
    const parsed = versionSchema.safeParse({ ...received.fields, license: chosenLicense(license, license_other) });
    const fieldErrors = issuesByField(parsed.error?.issues ?? []);
    if (!received.file) fieldErrors.file = ["validation.fieldEmpty|field=fields.file"];
    if (!parsed.success || !received.file) throw Refused.inFields(fieldErrors);
    const added = await addVersion(contentId, ownerId, parsed.data, received.file, received.thumbnail, now);
    if (added.created) owned();
    // A repeat of a post that already made the version keeps nothing of its own.
    else await discard();
    if (uploadId) await releaseUpload(uploadId);
    const thumbnail = received.thumbnail?.key;
    if (added.created && thumbnail) later(makeVariants(thumbnail).catch((error) => console.error("thumbnail variants not made", error)));
    return { number: added.number };
  });
}
