import { z } from "zod";
import { env } from "~/.server/bindings";
import { abortUpload, completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { deleteContent, findContent, updateContent } from "~/.server/content/content";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { serveContentFile } from "~/.server/content/serve-file";
import { translator } from "~/.server/i18n/translate";
import { translateError } from "~/lib/form-errors";
import { editContentSchema } from "~/lib/schemas/content";
import type { ApiContext } from "./context";
import { forMember } from "./define";
import { fail, notFound, ok } from "./envelope";

// Documents and videos over the same content service as /upload and /retrieval/detail.

function translated(ctx: ApiContext, errors: Record<string, string[]>) {
  const t = translator(ctx.language);
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages.map((m) => translateError(t, m))]));
}

const publicItem = ({ file_key: _f, thumbnail_key: _t, ...item }: NonNullable<Awaited<ReturnType<typeof findContent>>>) => ({
  ...item,
  file_url: `/api/contents/${item.id}/file`,
  thumbnail_url: `/api/contents/${item.id}/thumbnail`,
});

const fileCall = (path: string, which: "file" | "thumbnail") =>
  forMember({
    method: "GET",
    path,
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(env.DB, Number(id), member.user.id);
      return item ? serveContentFile(ctx.request, env.FILES, item, which) : notFound(ctx.language, "item");
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
    handle: async ({ ctx, member }) => {
      const created = await createFromMultipart(ctx.request, member.user.id, ctx.now);
      if (created.ok) return ok({ id: created.id }, "ok", { status: 201 });
      const errors = translated(ctx, { ...created.fieldErrors, ...(created.formErrors.length ? { form: created.formErrors } : {}) });
      return fail(created.status, created.status, Object.values(errors)[0]?.[0] ?? "", errors);
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}",
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(env.DB, Number(id), member.user.id);
      return item ? ok({ content: publicItem(item) }) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "PATCH",
    path: "/contents/{id}",
    body: editContentSchema,
    handle: async ({ ctx, member, body, params: [id] }) => {
      const updated = await updateContent(env.DB, Number(id), member.user.id, body, ctx.now);
      return updated ? ok(null, translator(ctx.language)("notify.updateSuccess")) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "DELETE",
    path: "/contents/{id}",
    handle: async ({ ctx, member, params: [id] }) =>
      (await deleteContent(env.DB, env.FILES, Number(id), member.user.id)) ? ok(null) : notFound(ctx.language, "item"),
  }),
  fileCall("/contents/{id}/file", "file"),
  fileCall("/contents/{id}/thumbnail", "thumbnail"),
  forMember({
    method: "POST",
    path: "/uploads",
    body: uploadStart,
    handle: async ({ ctx, member, body }) =>
      ok(await startUpload(env.DB, env.FILES, member.user.id, body.size, ctx.now), "ok", { status: 201 }),
  }),
  forMember({
    method: "GET",
    path: "/uploads/{id}",
    handle: async ({ ctx, member, params: [id] }) => {
      const status = await uploadStatus(env.DB, id ?? "", member.user.id);
      return status ? ok(status) : notFound(ctx.language, "item");
    },
  }),
  // A part's bytes, read by the handler.
  forMember({
    method: "PUT",
    path: "/uploads/{id}/parts/{n}",
    handle: async ({ ctx, member, params: [id, n] }) => {
      const stored = await putPart(env.DB, env.FILES, id ?? "", member.user.id, Number(n), await ctx.request.arrayBuffer());
      return stored ? ok(stored) : notFound(ctx.language, "item");
    },
  }),
  forMember({
    method: "POST",
    path: "/uploads/{id}/complete",
    handle: async ({ ctx, member, params: [id] }) => {
      const result = await completeUpload(env.DB, env.FILES, id ?? "", member.user.id);
      if (!result) return notFound(ctx.language, "item");
      return result.completed
        ? ok(result)
        : fail(409, 409, translator(ctx.language)("validation.uploadFailed"), { parts: (result.missing ?? []).map(String) });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/uploads/{id}",
    handle: async ({ ctx, member, params: [id] }) =>
      (await abortUpload(env.DB, env.FILES, id ?? "", member.user.id)) ? ok(null) : notFound(ctx.language, "item"),
  }),
];
