import { env } from "~/.server/bindings";
import { abortUpload, completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { deleteContent, findContent, updateContent } from "~/.server/content/content";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { UploadRefused } from "~/.server/content/receive-upload";
import { serveContentFile } from "~/.server/content/serve-file";
import { refusalMessage } from "~/.server/content/upload-errors";
import { translator } from "~/.server/i18n/translate";
import { translateError } from "~/lib/form-errors";
import { editContentSchema } from "~/lib/schemas/content";
import { type ApiContext, authenticate } from "./context";
import { API_CODES, fail, notFound, ok } from "./envelope";

// Documents and videos over the same content service as /upload and /retrieval/detail.

function translated(ctx: ApiContext, errors: Record<string, string[]>) {
  const t = translator(ctx.language);
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages.map((m) => translateError(t, m))]));
}

function refused(ctx: ApiContext, error: unknown) {
  if (!(error instanceof UploadRefused)) throw error;
  const { field, message, status } = refusalMessage(error);
  const text = translateError(translator(ctx.language), message);
  return fail(status, status, text, field ? { [field]: [text] } : undefined);
}

const publicItem = ({ file_key: _f, thumbnail_key: _t, ...item }: NonNullable<Awaited<ReturnType<typeof findContent>>>) => ({
  ...item,
  file_url: `/api/contents/${item.id}/file`,
  thumbnail_url: `/api/contents/${item.id}/thumbnail`,
});

export async function postContent(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const created = await createFromMultipart(ctx.request, auth.user.id, ctx.now);
  if (created.ok) return ok({ id: created.id }, "ok", { status: 201 });
  const errors = translated(ctx, { ...created.fieldErrors, ...(created.formErrors.length ? { form: created.formErrors } : {}) });
  return fail(created.status, created.status, Object.values(errors)[0]?.[0] ?? "", errors);
}

export async function getContent(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const item = await findContent(env.DB, Number(id), auth.user.id);
  return item ? ok({ content: publicItem(item) }) : notFound(ctx.language, "item");
}

export async function patchContent(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const parsed = editContentSchema.safeParse(await ctx.request.json().catch(() => null));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "")] = [issue.message];
    const shown = translated(ctx, errors);
    return fail(400, API_CODES.badRequest, Object.values(shown)[0]?.[0] ?? "", shown);
  }
  const updated = await updateContent(env.DB, Number(id), auth.user.id, parsed.data, ctx.now);
  return updated ? ok(null, translator(ctx.language)("notify.updateSuccess")) : notFound(ctx.language, "item");
}

export async function deleteContentCall(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return (await deleteContent(env.DB, env.FILES, Number(id), auth.user.id)) ? ok(null) : notFound(ctx.language, "item");
}

export async function getContentFile(ctx: ApiContext, id: string, which: "file" | "thumbnail") {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const item = await findContent(env.DB, Number(id), auth.user.id);
  return item ? serveContentFile(ctx.request, env.FILES, item, which) : notFound(ctx.language, "item");
}

export async function postUpload(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  try {
    const { size } = ((await ctx.request.json().catch(() => ({}))) ?? {}) as { size?: unknown };
    return ok(await startUpload(env.DB, env.FILES, auth.user.id, Number(size), ctx.now), "ok", { status: 201 });
  } catch (error) {
    return refused(ctx, error);
  }
}

export async function getUpload(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const status = await uploadStatus(env.DB, id, auth.user.id);
  return status ? ok(status) : notFound(ctx.language, "item");
}

export async function putUploadPart(ctx: ApiContext, id: string, n: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  try {
    const stored = await putPart(env.DB, env.FILES, id, auth.user.id, Number(n), await ctx.request.arrayBuffer());
    return stored ? ok(stored) : notFound(ctx.language, "item");
  } catch (error) {
    return refused(ctx, error);
  }
}

export async function postUploadComplete(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  try {
    const result = await completeUpload(env.DB, env.FILES, id, auth.user.id);
    if (!result) return notFound(ctx.language, "item");
    return result.completed
      ? ok(result)
      : fail(409, 409, translator(ctx.language)("validation.uploadFailed"), { parts: (result.missing ?? []).map(String) });
  } catch (error) {
    return refused(ctx, error);
  }
}

export async function deleteUpload(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return (await abortUpload(env.DB, env.FILES, id, auth.user.id)) ? ok(null) : notFound(ctx.language, "item");
}
