import { env } from "~/.server/bindings";
import { findContent } from "~/.server/content/content";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { translator } from "~/.server/i18n/translate";
import { pointsLedger, rankingList, scoreFor } from "~/.server/ranking/ranking";
import { clearSearchHistory, rememberSearch, searchHistory, searchPage, searchQuerySchema } from "~/.server/search/search";
import { addComment, deleteComment, followMember, setLike, socialOf } from "~/.server/social/social";
import { translateError } from "~/lib/form-errors";
import { commentSchema } from "~/lib/schemas/content";
import { type ApiContext, authenticate } from "./context";
import { API_CODES, fail, notAvailable, notFound, ok } from "./envelope";

// Feeds, search, likes, follows, comments and the ranking over the services the pages use.

const query = (ctx: ApiContext) => Object.fromEntries(new URL(ctx.request.url).searchParams);

export async function getFeed(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok(await listFeed(env.DB, feedQuerySchema.parse(query(ctx))));
}

export async function getSearch(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const q = searchQuerySchema.parse(query(ctx));
  const { items, hasMore } = await searchPage(env.DB, q, auth.user.id, ctx.now);
  if (q.page === 1) await rememberSearch(env.DB, auth.user.id, q.q, ctx.now);
  return ok({ query: q, results: items, hasMore });
}

export async function getSearchHistory(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok({ history: await searchHistory(env.DB, auth.user.id) });
}

export async function deleteSearchHistory(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  await clearSearchHistory(env.DB, auth.user.id);
  return ok(null);
}

/** Like (POST) or unlike (DELETE); both idempotent. */
export async function likeCall(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const item = await findContent(env.DB, Number(id), auth.user.id);
  if (!item) return notFound(ctx.language, "item");
  await setLike(env.DB, auth.user.id, item.id, ctx.request.method === "POST", ctx.now);
  return ok(await socialOf(env.DB, auth.user.id, item.id, item.owner_id));
}

/** Follow (POST) or unfollow (DELETE) a member; both idempotent. */
export async function followCall(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const followed = await followMember(env.DB, auth.user.id, Number(id), ctx.request.method === "POST", ctx.now);
  if (followed === "missing") return notFound(ctx.language, "item");
  if (followed === "refused") return notAvailable(ctx.language);
  return ok(followed);
}

export async function getComments(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const item = await findContent(env.DB, Number(id), auth.user.id);
  if (!item) return notFound(ctx.language, "item");
  return ok({ comments: (await socialOf(env.DB, auth.user.id, item.id, item.owner_id)).comments });
}

export async function postComment(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const item = await findContent(env.DB, Number(id), auth.user.id);
  if (!item) return notFound(ctx.language, "item");
  const parsed = commentSchema.safeParse(await ctx.request.json().catch(() => null));
  if (!parsed.success) {
    const message = translateError(translator(ctx.language), parsed.error.issues[0]?.message ?? "validation.inputEmpty");
    return fail(400, API_CODES.badRequest, message, { body: [message] });
  }
  const added = await addComment(env.DB, auth.user.id, item.id, parsed.data.body, ctx.now, parsed.data.client_key);
  if (added === "refused") return notAvailable(ctx.language);
  return ok(null, "ok", { status: added === "stored" ? 201 : 200 });
}

export async function deleteCommentCall(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return (await deleteComment(env.DB, auth.user.id, Number(id))) ? ok(null) : notFound(ctx.language, "item");
}

export async function getRanking(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok({ ranking: await rankingList(env.DB), me: await scoreFor(env.DB, auth.user.id) });
}

export async function getPoints(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  return ok(await pointsLedger(env.DB, auth.user.id, ctx.now));
}
