import { z } from "zod";
import { addVersionFromMultipart } from "~/.server/content/add-version-form";
import { findContent } from "~/.server/content/content";
import { askedVersion, itemAtVersion, listVersions, type Version } from "~/.server/content/versions";
import { postedOf } from "~/.server/http/body";
import { countReading, downloadOf } from "~/.server/stats/readings";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { servedOf } from "~/.server/web/readings";
import { VERSIONS_MAX } from "~/lib/limits";
import { afterAnswer } from "./context";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// An item's versions (decision 0042), over the service the detail page uses.

const version = z.object({
  number: z.int().describe("1 for the first upload, then 2, 3… in the order they were published"),
  note: z.string().describe("what changed (empty for version 1)"),
  title: z.string().describe("the item's title when this version was published"),
  file_size: z.int(),
  file_type: z.string(),
  doi: z.string().nullable().describe("this version's own DOI, if it has one (the item's doi is the work's)"),
  license: z.string().nullable().describe("the licence it was published under: an SPDX identifier, null when not specified"),
  created_at: z.int().describe("ms since the epoch"),
  file_url: z.string(),
});

const shown = (id: number, v: Version) => ({
  number: v.number,
  note: v.note,
  title: v.title,
  file_size: v.file_size,
  file_type: v.file_type,
  doi: v.doi,
  license: v.license,
  created_at: v.created_at,
  file_url: `/api/contents/${id}/versions/${v.number}/file`,
});

export const versionRoutes = [
  forMember({
    method: "POST",
    path: "/contents/{id}/versions",
    summary: `The owner publishes a new version (at most ${VERSIONS_MAX}): one multipart/form-data post, streamed`,
    description:
      "Fields note (what changed, required), license (an SPDX identifier; default: the item's), doi (this version's own, optional), client_key (the same key twice makes one version), an optional thumbnail (PNG/JPG; default: the current one), and either file (the item's kind: PDF stays PDF, MP4 stays MP4, 100 MB) or upload_id of a completed /uploads upload.",
    answers: { 201: z.object({ number: z.int() }), 400: REFUSAL, 404: REFUSAL, 409: REFUSAL, 413: REFUSAL, 415: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const added = await addVersionFromMultipart(postedOf(ctx.request), Number(id), member.user.id, ctx.now, afterAnswer(ctx));
      return ok({ number: added.number }, "ok", { status: 201 });
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/versions",
    summary: "An item's versions, newest first",
    answers: { 200: z.object({ versions: z.array(version) }), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      return ok({ versions: (await listVersions(item.id)).map((v) => shown(item.id, v)) });
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/versions/{n}",
    summary: "One version of an item",
    answers: { 200: z.object({ version }), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id, n] }) => {
      const item = await findContent(Number(id), member.user.id);
      const found = item ? (await listVersions(item.id)).find((v) => v.number === Number(n)) : undefined;
      return item && found ? ok({ version: shown(item.id, found) }) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/versions/{n}/file",
    summary: "One version's file: Range (206), ETag (304), Content-Disposition",
    answers: {
      200: { bytes: "The bytes", types: ["application/pdf", "video/mp4"] },
      206: { bytes: "The requested range", types: ["application/pdf", "video/mp4"] },
      304: { empty: "Unchanged since the ETag sent" },
      404: REFUSAL,
      416: { empty: "Range not satisfiable" },
    },
    handle: async ({ ctx, member, params: [id, n] }) => {
      const item = await findContent(Number(id), member.user.id);
      const version = item ? await askedVersion(item, n ?? null) : undefined;
      if (!item || version === undefined) return notFound(ctx.language, "item");
      const served = await serveContentFile(ctx.request, itemAtVersion(item, version), "file");
      countReading(downloadOf(item, member.user, servedOf(ctx.request, served), ctx.now), afterAnswer(ctx));
      return served.status === 404 ? notFound(ctx.language, "item") : served;
    },
  }),
];
