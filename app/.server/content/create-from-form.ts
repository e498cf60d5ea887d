import { config } from "~/.server/config/config";
import type { Posted } from "~/.server/http/body";
import { enqueue } from "~/.server/jobs/queue";
import { newItemJob } from "~/.server/notifications/new-items";
import { describeError, logEvent } from "~/.server/observability/log";
import { attempt, issuesByField, Refused } from "~/.server/refused";
import { captionLang } from "~/lib/captions";
import { languageWarning } from "~/lib/item-languages";
import { chosenLicense } from "~/lib/licenses";
import { contentFieldsSchema } from "~/lib/schemas/content";
import { CLIENT_KEY } from "~/lib/schemas/text";
import { readCaptionFile } from "./caption-file";
import { checkAgainstVideo, checkBudget, saveCaptions } from "./captions";
import { completedUpload, releaseUpload } from "./chunked";
import { createContent, fileMatchesKind } from "./content";
import { addFunding, checkedFunder, fundingSent } from "./funding";
import { type ReceivedUpload, receiveUpload, removeStored } from "./receive-upload";
import { makeVariants } from "./thumbnail-variants";

/**
 * A multipart post with a file, as it streams in: its fields, and the file from the post or (with
 * JavaScript) the completed parts upload it names (`upload_id`). A refusal while reading it leaves
 * nothing stored.
 */
export async function receivedFiles(posted: Posted, ownerId: number): Promise<{ received: ReceivedUpload; uploadId?: string }> {
  const received = await receiveUpload(posted);
  const uploadId = received.fields.upload_id;
  if (!received.file && uploadId) {
    const completed = await completedUpload(uploadId, ownerId).catch(async (error) => {
      await removeStored(received);
      throw error;
    });
    received.file = completed ?? undefined;
  }
  return { received, uploadId };
}

/**
 * A caption file sent with an upload, read (with its language) and held against the video and the
 * member's budget before anything is made; its refusal goes beside it.
 */
async function captionsSent(received: ReceivedUpload, ownerId: number, kind: string, fieldErrors: Record<string, string[]>) {
  if (!received.captions) return null;
  const lang = captionLang(received.fields.captions_lang?.trim() ?? "");
  if (kind !== "video") fieldErrors.captions = ["content.captionsVideoOnly"];
  else if (!lang) fieldErrors.captions_lang = ["content.captionsLanguageInvalid"];
  else {
    try {
      const cues = readCaptionFile(received.captions);
      if (received.file) await checkAgainstVideo(received.file, cues);
      await checkBudget(ownerId, cues);
      return { lang, cues };
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      fieldErrors.captions = [error.key];
    }
  }
  return null;
}

/**
 * Runs what a received post goes on to do; when it throws before its files belong to a row (`owned`
 * not yet called), they are removed, whatever the error: a crash must not leave objects no row names.
 * A parts upload's file stays, for the next try. A refusal carries what was typed back to the form
 * (the post cannot be read again).
 */
export async function keepingNothingOnFailure<T>(
  post: { received: ReceivedUpload; uploadId?: string },
  work: (owned: () => void) => Promise<T>,
): Promise<T> {
  let kept = false;
  try {
    return await work(() => {
      kept = true;
    });
  } catch (error) {
    if (!kept) await removeStored(post.uploadId ? { ...post.received, file: undefined } : post.received);
    if (error instanceof Refused) error.sent ??= post.received.fields;
    throw error;
  }
}

/**
 * Creates content from the upload form's multipart post, for the page and the API alike: the file
 * streamed in the same post, or (with JavaScript) named by a completed parts upload (`upload_id`).
 * Every failure, refused or crashed, leaves nothing stored but a parts upload, which stays for the next try.
 */
export async function createFromMultipart(
  posted: Posted,
  ownerId: number,
  now: number,
  later: (work: Promise<unknown>) => void,
): Promise<{ id: number; warning: string | null; thenFunding: boolean }> {
  const post = await receivedFiles(posted, ownerId);
  return keepingNothingOnFailure(post, (owned) => createFromReceived(post, ownerId, now, later, owned));
}

async function createFromReceived(
  { received, uploadId }: { received: ReceivedUpload; uploadId?: string },
  ownerId: number,
  now: number,
  later: (work: Promise<unknown>) => void,
  owned: () => void,
): Promise<{ id: number; warning: string | null; thenFunding: boolean }> {
  const { license, license_other } = received.fields;
  const parsed = contentFieldsSchema.safeParse({ ...received.fields, license: chosenLicense(license, license_other) });
  const fieldErrors = issuesByField(parsed.error?.issues ?? []);
  if (!received.file) fieldErrors.file = ["validation.fieldEmpty|field=fields.file"];
  else if (parsed.success && !fileMatchesKind(parsed.data.kind, received.file.type)) fieldErrors.file = ["validation.fileMismatch"];
  if (!received.thumbnail) fieldErrors.thumbnail = ["validation.fieldEmpty|field=fields.thumbnail"];
  const captions = parsed.success ? await captionsSent(received, ownerId, parsed.data.kind, fieldErrors) : null;
  // Its funder, checked with the registry before anything is made (decision 0052).
  const funding = fundingSent(received.fields, fieldErrors);
  const funder = funding ? await attempt(() => checkedFunder(funding)) : undefined;
  // An id the registry does not hold, or a registry that does not answer, is said beside the id.
  if (funder instanceof Refused) fieldErrors.funder_id = [funder.key];
  if (!parsed.success || !received.file || !received.thumbnail || Object.keys(fieldErrors).length) throw Refused.inFields(fieldErrors);
  const key = received.fields.client_key;
  const clientKey = key && CLIENT_KEY.test(key) ? key : undefined;
  const made = await createContent(ownerId, parsed.data, received.file, received.thumbnail, now, clientKey);
  if (!made) {
    await removeStored(received);
    throw new Refused("notify.sessionExpired", { status: 401 });
  }
  const { id, created, fileKey } = made;
  if (created) owned();
  // A repeat of a post that already made the item answers with it, and keeps nothing of its own
  // (unless its file is the item's: the same completed parts upload posted again).
  if (!created) await removeStored(received.file.key === fileKey ? { ...received, file: undefined } : received);
  if (uploadId) await releaseUpload(uploadId);
  if (created && parsed.data.kind === "document") {
    // Its text is read in the background; a send lost here is sent again by the cron (stalledDocuments).
    await enqueue([{ type: "document-text", id }]).catch((error) =>
      logEvent("error", "document_text.not_queued", { id, error: describeError(error) }),
    );
  }
  // Where a speech-to-text model is configured, a new video is transcribed in the background (decision 0043).
  // Captions sent with the video (decision 0043); a repeat stores the same again. They were held
  // against the budget above: only another write racing them to it refuses them here, and the video stays.
  if (captions)
    await saveCaptions(id, captions.lang, captions.cues, "owner", now).catch((error) => {
      if (!(error instanceof Refused)) throw error;
      logEvent("warn", "captions.refused_after_upload", { id, reason: error.key });
    });
  if (created && parsed.data.kind === "video" && !captions && config().speechToText)
    later(
      enqueue([{ type: "auto-captions", id }]).catch((error) =>
        logEvent("error", "captions.not_queued", { id, error: describeError(error) }),
      ),
    );
  // Who follows its uploader, its goal or a search it matches hears of it, in the background (decision 0040).
  if (created && parsed.data.publicize)
    later(enqueue([newItemJob(id)]).catch((error) => logEvent("error", "new_item.not_queued", { id, error: describeError(error) })));
  // The cards' sizes of a new thumbnail, made after the answer (its first request would make them too).
  if (created) {
    const thumbnail = received.thumbnail.key;
    later(makeVariants(thumbnail).catch((error) => console.error("thumbnail variants not made", error)));
  }
  // A repeat of the post names the same funding, which stores nothing more; one refused now (the
  // item filled up since) leaves the upload as it is, as captions do.
  if (funding && !(funder instanceof Refused))
    await addFunding(id, funding, now, funder).catch((error) => {
      if (!(error instanceof Refused)) throw error;
      logEvent("warn", "funding.refused_after_upload", { id, reason: error.key });
    });
  // Saved all the same: the owner hears when the text does not look like the language chosen (decision 0050).
  // The form's "name its funding next" sends the member on to the item's funding page.
  return { id, warning: languageWarning(parsed.data), thenFunding: received.fields.then_funding === "1" };
}
