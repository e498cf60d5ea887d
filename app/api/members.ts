import { env } from "~/.server/bindings";
import { recommended } from "~/.server/content/recommend";
import { translator } from "~/.server/i18n/translate";
import { addInterest, listInterests, removeInterest } from "~/.server/members/interests";
import { memberPage } from "~/.server/members/profile";
import { translateError } from "~/lib/form-errors";
import { interestSchema } from "~/lib/schemas/content";
import { type ApiContext, authenticate } from "./context";
import { API_CODES, fail, notFound, ok } from "./envelope";

// Member pages, interests and the recommended list over the services the pages use.

export async function getMember(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const page = await memberPage(env.DB, auth.user.id, Number(id));
  if (!page) return notFound(ctx.language, "member");
  return ok(page);
}

export async function getInterests(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok({ interests: await listInterests(env.DB, auth.user.id) });
}

export async function postInterest(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const t = translator(ctx.language);
  const parsed = interestSchema.safeParse(await ctx.request.json().catch(() => null));
  const refusal = parsed.success
    ? await addInterest(env.DB, auth.user.id, parsed.data.sdg, ctx.now)
    : (parsed.error.issues[0]?.message ?? "validation.inputEmpty");
  if (refusal) {
    const message = translateError(t, refusal);
    return fail(400, API_CODES.badRequest, message, { sdg: [message] });
  }
  return ok({ interests: await listInterests(env.DB, auth.user.id) }, "ok", { status: 201 });
}

export async function deleteInterest(ctx: ApiContext, sdg: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  await removeInterest(env.DB, auth.user.id, Number(sdg));
  return ok({ interests: await listInterests(env.DB, auth.user.id) });
}

export async function getRecommendations(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const page = Math.min(Math.max(Number(new URL(ctx.request.url).searchParams.get("page")) || 1, 1), 1000);
  return ok({ ...(await recommended(env.DB, auth.user.id, page)), page });
}
