import { MAX_OPEN_UPLOADS, MAX_THUMBNAIL_MB, MAX_THUMBNAIL_PIXELS, MAX_UPLOAD_MB } from "~/lib/limits";
import type { RefusalReason, UploadRefused } from "./receive-upload";

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

/** The field and translated message key for a refused upload, and its HTTP status. */
export function refusalMessage(refusal: UploadRefused): { field: string; message: string; status: number } {
  if (refusal.field === "form") return { field: "", message: "validation.uploadFailed", status: 400 };
  const message = (refusal.field === "file" ? FILE : THUMBNAIL)[refusal.reason];
  const status = refusal.reason === "size" ? 413 : refusal.reason === "type" ? 415 : refusal.reason === "too-many" ? 429 : 400;
  return { field: refusal.field, message, status };
}
