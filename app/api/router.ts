import { translator } from "~/.server/i18n/translate";
import {
  deleteContentCall,
  deleteUpload,
  getContent,
  getContentFile,
  getUpload,
  patchContent,
  postContent,
  postUpload,
  postUploadComplete,
  putUploadPart,
} from "./contents";
import type { ApiContext } from "./context";
import { getConversations, getMessages, postConversation, postMessage } from "./conversations";
import { API_CODES, fail, notFound } from "./envelope";
import { deleteInterest, getInterests, getMember, getRecommendations, postInterest } from "./members";
import { OPENAPI } from "./openapi";
import {
  deleteCommentCall,
  deleteSearchHistory,
  followCall,
  getComments,
  getFeed,
  getPoints,
  getRanking,
  getSearch,
  getSearchHistory,
  likeCall,
  postComment,
} from "./social";
import { deleteLogout, getAuthInfo, getUser, postForgotPassword, postLogin, postRegister, postResetPassword, postSendCode } from "./users";

type Handler = (ctx: ApiContext, ...params: string[]) => Promise<Response> | Response;

// Method and path (below /api) -> handler. Paths are the spec's (section 7).
const ROUTES: Array<[string, RegExp, Handler]> = [
  ["POST", /^\/users\/login$/, postLogin],
  ["POST", /^\/users\/send-verification-code$/, postSendCode],
  ["POST", /^\/users\/register$/, postRegister],
  ["POST", /^\/users\/forgot-password$/, postForgotPassword],
  ["POST", /^\/users\/reset-password$/, postResetPassword],
  ["GET", /^\/users\/(\d+)$/, getUser],
  ["GET", /^\/auth\/info$/, getAuthInfo],
  ["DELETE", /^\/auth\/logout$/, deleteLogout],
  ["POST", /^\/contents$/, postContent],
  ["GET", /^\/contents\/(\d+)$/, getContent],
  ["PATCH", /^\/contents\/(\d+)$/, patchContent],
  ["DELETE", /^\/contents\/(\d+)$/, deleteContentCall],
  ["GET", /^\/contents\/(\d+)\/file$/, (ctx, id) => getContentFile(ctx, id ?? "", "file")],
  ["GET", /^\/contents\/(\d+)\/thumbnail$/, (ctx, id) => getContentFile(ctx, id ?? "", "thumbnail")],
  ["POST", /^\/uploads$/, postUpload],
  ["GET", /^\/uploads\/([\w-]+)$/, getUpload],
  ["DELETE", /^\/uploads\/([\w-]+)$/, deleteUpload],
  ["PUT", /^\/uploads\/([\w-]+)\/parts\/(\d+)$/, putUploadPart],
  ["POST", /^\/uploads\/([\w-]+)\/complete$/, postUploadComplete],
  ["GET", /^\/contents$/, getFeed],
  ["GET", /^\/search$/, getSearch],
  ["GET", /^\/search\/history$/, getSearchHistory],
  ["DELETE", /^\/search\/history$/, deleteSearchHistory],
  ["POST", /^\/contents\/(\d+)\/like$/, likeCall],
  ["DELETE", /^\/contents\/(\d+)\/like$/, likeCall],
  ["GET", /^\/contents\/(\d+)\/comments$/, getComments],
  ["POST", /^\/contents\/(\d+)\/comments$/, postComment],
  ["DELETE", /^\/comments\/(\d+)$/, deleteCommentCall],
  ["POST", /^\/users\/(\d+)\/follow$/, followCall],
  ["DELETE", /^\/users\/(\d+)\/follow$/, followCall],
  ["GET", /^\/ranking$/, getRanking],
  ["GET", /^\/points$/, getPoints],
  ["GET", /^\/members\/(\d+)$/, getMember],
  ["GET", /^\/interests$/, getInterests],
  ["POST", /^\/interests$/, postInterest],
  ["DELETE", /^\/interests\/(\d+)$/, deleteInterest],
  ["GET", /^\/recommendations$/, getRecommendations],
  ["GET", /^\/conversations$/, getConversations],
  ["POST", /^\/conversations$/, postConversation],
  ["GET", /^\/conversations\/(\d+)\/messages$/, getMessages],
  ["POST", /^\/conversations\/(\d+)\/messages$/, postMessage],
  ["GET", /^\/openapi\.json$/, () => Response.json(OPENAPI)],
];

export const API_BASE = "/api";

/** The JSON API: a thin adapter over the domain services the pages use. */
export async function handleApi(ctx: ApiContext): Promise<Response> {
  const path = new URL(ctx.request.url).pathname.slice(API_BASE.length) || "/";
  const t = translator(ctx.language);
  const matches = ROUTES.filter(([, pattern]) => pattern.test(path));
  if (matches.length === 0) return notFound(ctx.language, "call");
  const route = matches.find(([method]) => method === ctx.request.method);
  if (!route) {
    const response = fail(405, API_CODES.methodNotAllowed, t("notify.requestFailed"));
    response.headers.set("Allow", matches.map(([method]) => method).join(", "));
    return response;
  }
  const params = route[1].exec(path)?.slice(1) ?? [];
  const response = await route[2](ctx, ...params);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}
