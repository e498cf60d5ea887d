// Sending a file in resumable parts (lib/chunked-upload.ts), fetched by the upload form's module when
// a file is chosen: the form's page carries only what takes the submit (docs/decisions/0047).
export { cancelUpload, UploadStopped, uploadInParts } from "~/lib/chunked-upload";
