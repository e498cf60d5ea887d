import { Refused, type RefusedOptions } from "~/.server/refused";
import { MAX_OPEN_UPLOADS, MAX_THUMBNAIL_MB, MAX_THUMBNAIL_PIXELS, MAX_UPLOAD_MB } from "~/lib/limits";

export type RefusalReason = "type" | "size" | "empty" | "image-size" | "too-many";

const FILE: Record<RefusalReason, string> = {
  type: "validation.uploadType",
  size: `validation.uploadSize|max=${MAX_UPLOAD_MB}`,
  empty: "validation.fieldEmpty|field=fields.file",
  "image-size": `validation.uploadSize|max=${MAX_UPLOAD_MB}`,
  "too-many": `validation.tooManyUploads|max=${MAX_OPEN_UPLOADS}`,
};
const THUMBNAIL: Record<RefusalReason, string> = {
  type: "validation.thumbnailType",
  size: `validation.thumbnailTooLarge|max=${MAX_THUMBNAIL_MB}|pixels=${MAX_THUMBNAIL_PIXELS}`,
  empty: "validation.fieldEmpty|field=fields.thumbnail",
  "image-size": `validation.thumbnailTooLarge|max=${MAX_THUMBNAIL_MB}|pixels=${MAX_THUMBNAIL_PIXELS}`,
  "too-many": `validation.tooManyUploads|max=${MAX_OPEN_UPLOADS}`,
};

/** A refused upload: the part it concerns ("form" for the body as a whole) and why. */
export class UploadRefused extends Refused {
  constructor(
    readonly part: "file" | "thumbnail" | "form",
    readonly reason: RefusalReason,
  ) {
    super(...refusalOf(part, reason));
  }
}

function refusalOf(part: UploadRefused["part"], reason: RefusalReason): [string, RefusedOptions] {
  if (part === "form") return ["validation.uploadFailed", { status: 400 }];
  const status = reason === "size" ? 413 : reason === "type" ? 415 : reason === "too-many" ? 429 : 400;
  return [(part === "file" ? FILE : THUMBNAIL)[reason], { status, field: part }];
}
