import { z } from "zod";
import { abortUpload, completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { type ContentItem, deleteContent, findContent, shownItem, updateContent } from "~/.server/content/content";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { textStateOf } from "~/.server/content/document-text";
import { prefillFromDoi } from "~/.server/content/doi-prefill";
import { fundingOf } from "~/.server/content/funding";
import { type ItemText, itemTextsRead } from "~/.server/content/item-texts";
import { askedVersion } from "~/.server/content/versions";
import { postedOf } from "~/.server/http/body";
import { translator } from "~/.server/i18n/translate";
import { readOne } from "~/.server/reads";
import { countReading, downloadOf, readingOf } from "~/.server/stats/readings";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { agentOf, servedOf } from "~/.server/web/readings";
import { CITATION_FORMATS, itemUrl } from "~/lib/citations";
import type { TextState } from "~/lib/document-text";
import { DOI_MAX } from "~/lib/limits";
import { editContentSchema } from "~/lib/schemas/content";
import * as answers from "./answers";
import { afterAnswer } from "./context";
import { forMember, REFUSAL } from "./define";
import { fail, notFound, ok } from "./envelope";

// Documents and videos over the same content service as /upload and /retrieval/detail.

const publicItem = (item: ContentItem, text: TextState | null, texts: ItemText[]) => ({
  ...shownItem(item),
  text,
  texts: texts.map(({ lang, title, summary, source }) => ({ lang, title, summary, source })),
  file_url: `/api/contents/${item.id}/file`,
  thumbnail_url: `/api/contents/${item.id}/thumbnail`,
  citation_url: `/api/contents/${item.id}/citation`,
});

/** A file or thumbnail, with Range (206, 416) and ETag (304) alike. */
const fileCall = (path: string, which: "file" | "thumbnail", summary: string, types: string[]) =>
  forMember({
    method: "GET",
    path,
    summary,
    answers: {
      200: { bytes: "The bytes", types },
      206: { bytes: "The requested range", types },
      304: { empty: "Unchanged since the ETag sent" },
      404: REFUSAL,
      416: { empty: "Range not satisfiable" },
    },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      const served = item ? await serveContentFile(ctx.request, item, which) : null;
      if (item && served && which === "file")
        countReading(downloadOf(item, member.user, servedOf(ctx.request, served), ctx.now), afterAnswer(ctx));
      // The pages' plain 404 (an object missing from storage) becomes the API's envelope.
      return served && served.status !== 404 ? served : notFound(ctx.language, "item");
    },
  });

/** Starting a resumable upload: the whole file's size in bytes (its limit is the service's to say). */
const NO_FILE = "validation.fieldEmpty|field=fields.file";
const uploadStart = z.object({ size: z.number({ error: NO_FILE }).int(NO_FILE).positive(NO_FILE) });

export const contentRoutes = [
  // A multipart body with the two files: read (streamed, bounded) by the content service.
  forMember({
    method: "POST",
    path: "/contents",
    summary: "Upload a document (PDF) or video (MP4) with its thumbnail: one multipart/form-data post, streamed",
    description:
      "Fields kind (document|video), sdg (1-17), title, summary, content, keywords, publicize (1|0), open_record (1 to let anyone read its record where the site allows it; default 0), on_behalf (1 when the uploader is not an author: authors then names them; default 0), language (a BCP 47 tag such as ja), optionally one funding reference (funder_name, funder_id: a ROR id or Crossref Funder ID, award_number; more through /contents/{id}/funding), thumbnail (PNG/JPG, 5 MB, 4000 px), and either file (PDF/MP4, 100 MB, judged by content) or upload_id of a completed /uploads upload.",
    answers: { 201: answers.created, 400: REFUSAL, 413: REFUSAL, 415: REFUSAL, 429: REFUSAL },
    handle: async ({ ctx, member }) => {
      const created = await createFromMultipart(postedOf(ctx.request), member.user.id, ctx.now, afterAnswer(ctx));
      return ok({ id: created.id }, "ok", { status: 201 });
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}",
    summary: "One item (404 when it is private to someone else)",
    answers: { 200: answers.content, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const text = item.owner_id === member.user.id ? await textStateOf(item.id) : null;
      return ok({ content: publicItem(item, text, await readOne(itemTextsRead(item.id))) });
    },
  }),
  forMember({
    method: "POST",
    path: "/contents/prefill",
    summary:
      "The fields a DOI's record fills in (title, co-authors with their ORCID iDs, summary, keywords, year), for the member to check; nothing is saved",
    body: z.object({ doi: z.string().max(DOI_MAX).describe("bare, as doi:…, or as a doi.org link") }),
    answers: { 200: answers.prefill, 400: REFUSAL, 404: REFUSAL, 502: REFUSAL, 504: REFUSAL },
    handle: async ({ member, body }) => ok(await prefillFromDoi(body.doi, member.user.id)),
  }),
  forMember({
    method: "PATCH",
    path: "/contents/{id}",
    summary:
      "The owner edits sdg, title, summary, content, keywords and publicize (all required), doi and authors (optional: left out, they are cleared), open_record (1 opens its record where the site allows it; left out, it is members-only) on_behalf (1: the uploader is not an author; left out, they are one) and language (a BCP 47 tag; left out, it stays)",
    body: editContentSchema,
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) => {
      const updated = await updateContent(Number(id), member.user.id, body, ctx.now);
      return updated ? ok(null, translator(ctx.language)("notify.updateSuccess")) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "DELETE",
    path: "/contents/{id}",
    summary: "The owner deletes the item and its files",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) =>
      (await deleteContent(Number(id), member.user.id)) ? ok(null) : notFound(ctx.language, "item"),
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/citation",
    summary: "The item's citation: BibTeX (the default), RIS, CSL-JSON, or a reference in APA or Harvard in your language",
    query: z.object({
      format: z.enum(CITATION_FORMATS).catch("bibtex"),
      version: z
        .string()
        .regex(/^\d{1,3}$/)
        .optional()
        .describe("cite this version (default: the latest)"),
    }),
    answers: { 200: answers.citation, 404: REFUSAL },
    handle: async ({ ctx, member, query, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      const version = item ? await askedVersion(item, query.version ?? null) : undefined;
      if (!item || version === undefined) return notFound(ctx.language, "item");
      const { asVersion, citeItem } = await import("~/.server/content/citation");
      countReading(readingOf("export", item, member.user, agentOf(ctx.request), ctx.now), afterAnswer(ctx));
      const cited = { ...(version ? asVersion(item, version) : item), funding: await fundingOf(item.id) };
      const url = itemUrl(new URL(ctx.request.url).origin, item.id, version?.number);
      const text = citeItem(cited, url, [query.format], ctx.language)[query.format];
      return ok({ format: query.format, text });
    },
  }),
  fileCall("/contents/{id}/file", "file", "The file: Range (206), ETag (304), Content-Disposition", ["application/pdf", "video/mp4"]),
  fileCall("/contents/{id}/thumbnail", "thumbnail", "The thumbnail image", ["image/png", "image/jpeg"]),
  forMember({
    method: "POST",
    path: "/uploads",
    summary: "Start a resumable upload of `size` bytes (at most 100 MB); parts are part_size bytes, the last the rest",
    body: uploadStart,
    answers: { 201: answers.uploadStatus, 413: REFUSAL, 429: REFUSAL },
    handle: async ({ ctx, member, body }) => ok(await startUpload(member.user.id, body.size, ctx.now), "ok", { status: 201 }),
  }),
  forMember({
    method: "GET",
    path: "/uploads/{id}",
    summary: "What has arrived, to resume",
    answers: { 200: answers.uploadStatus, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const status = await uploadStatus(id ?? "", member.user.id);
      return status ? ok(status) : notFound(ctx.language, "item");
    },
  }),
  // A part's bytes, read by the handler.
  forMember({
    method: "PUT",
    path: "/uploads/{id}/parts/{n}",
    summary: "Part n as raw bytes (application/octet-stream); the first part must be a PDF or MP4",
    answers: { 200: answers.partStored, 404: REFUSAL, 413: REFUSAL, 415: REFUSAL },
    handle: async ({ ctx, member, params: [id, n] }) => {
      const stored = await putPart(id ?? "", member.user.id, Number(n), await ctx.request.arrayBuffer());
      return stored ? ok(stored) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "POST",
    path: "/uploads/{id}/complete",
    summary: "Join the parts (409 lists the missing parts)",
    answers: { 200: answers.uploadCompleted, 404: REFUSAL, 409: REFUSAL, 415: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const result = await completeUpload(id ?? "", member.user.id);
      if (!result) return notFound(ctx.language, "item");
      return result.completed
        ? ok({ completed: true as const })
        : fail(409, 409, translator(ctx.language)("validation.uploadFailed"), { parts: (result.missing ?? []).map(String) });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/uploads/{id}",
    summary: "Cancel: drop the upload and its parts",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) =>
      (await abortUpload(id ?? "", member.user.id)) ? ok(null) : notFound(ctx.language, "item"),
  }),
];
