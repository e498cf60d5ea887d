import { z } from "zod";
import { findContent } from "~/.server/content/content";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { pointsLedger, rankingList, scoreFor } from "~/.server/ranking/ranking";
import { clearSearchHistory, rememberSearch, searchHistory, searchPage, searchQuerySchema } from "~/.server/search/search";
import { ANNOTATION_CONTEXT, ANNOTATION_MEDIA_TYPE, annotationCollection, annotationPage } from "~/.server/social/annotations";
import { addComment, deleteComment, followMember, setLike, socialOf } from "~/.server/social/social";
import { commentSchema } from "~/lib/schemas/content";
import * as answers from "./answers";
import { snakeKeys, snakeName } from "./casing";
import { afterAnswer } from "./context";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// Feeds, search, likes, follows, comments and the ranking over the services the pages use.

/** Like (POST) or unlike (DELETE); both idempotent. */
const likeCall = (method: "POST" | "DELETE") =>
  forMember({
    method,
    path: "/contents/{id}/like",
    summary: method === "POST" ? "Like (idempotent)" : "Unlike (idempotent)",
    answers: { 200: answers.social, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      await setLike(member.user.id, item.id, method === "POST", ctx.now);
      return ok(await socialOf(member.user.id, item.id, item.owner_id));
    },
  });

/** Follow (POST) or unfollow (DELETE) a member; both idempotent. */
const followCall = (method: "POST" | "DELETE") =>
  forMember({
    method,
    path: "/users/{id}/follow",
    summary: method === "POST" ? "Follow a member (idempotent); 403 when it is not available to you" : "Unfollow (idempotent)",
    answers: { 200: answers.followers, 403: REFUSAL, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      return ok(await followMember(member.user.id, Number(id), method === "POST", ctx.now));
    },
  });

export const socialRoutes = [
  forMember({
    method: "GET",
    path: "/contents",
    summary: "The discovery feed: publicized items",
    query: feedQuerySchema,
    answers: { 200: answers.feedPage },
    handle: async ({ query }) => ok(await listFeed(query)),
  }),
  forMember({
    method: "GET",
    path: "/search",
    summary:
      "Full-text search of documents, videos or members (20 a page); matches are wrapped in U+0001 and U+0002. Documents whose own text, and videos whose captions (not their fields) hold the words follow, each with the passage and its page or second; `partial` is true when some of that text could not be searched just now",
    query: searchQuerySchema,
    answers: { 200: answers.searchResults },
    handle: async ({ ctx, member, query }) => {
      const { items, has_more, partial } = await searchPage(query, member.user.id, ctx.now);
      // Remembered after the answer (decision 0036).
      if (query.page === 1) afterAnswer(ctx)(rememberSearch(member.user.id, query.q, ctx.now));
      return ok({ query, results: items, has_more, partial });
    },
  }),
  forMember({
    method: "GET",
    path: "/search/history",
    summary: "Your last ten searches",
    answers: { 200: answers.history },
    handle: async ({ member }) => ok({ history: await searchHistory(member.user.id) }),
  }),
  forMember({
    method: "DELETE",
    path: "/search/history",
    summary: "Clear your search history",
    answers: { 200: z.null() },
    handle: async ({ member }) => {
      await clearSearchHistory(member.user.id);
      return ok(null);
    },
  }),
  likeCall("POST"),
  likeCall("DELETE"),
  forMember({
    method: "GET",
    path: "/contents/{id}/comments",
    summary: "The item's comments, oldest first",
    answers: { 200: answers.comments, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      return ok({ comments: (await socialOf(member.user.id, item.id, item.owner_id)).comments });
    },
  }),
  forMember({
    method: "POST",
    path: "/contents/{id}/comments",
    summary:
      "Comment, or reply (parent_id); @name mentions a member (400 when the name is several members', or more than 10). On a passage: a document's `page` and `quote` (400 when the page's text does not hold it), or a video's moment `at`–`until` in seconds; `private` for the owner's eyes only. The same client_key again stores nothing new (200); 403 when commenting is not available to you",
    body: commentSchema,
    answers: { 201: z.null(), 200: z.null(), 400: REFUSAL, 403: REFUSAL, 404: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const { body: words, client_key, parent_id, ...passage } = body;
      const added = await addComment(member.user.id, item.id, words, ctx.now, client_key, parent_id, passage);
      return ok(null, "ok", { status: added === "stored" ? 201 : 200 });
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/annotations",
    summary: "The item's comments on passages as a W3C Web Annotation collection",
    description:
      "An AnnotationCollection (JSON-LD, the Annotation Protocol's media type) with its first page inside; `page` (from 0) answers that AnnotationPage. Each comment on a passage is an Annotation on the item's file: a quote on a page (a FragmentSelector `page=N` refined by a TextQuoteSelector) or a moment of a video (a FragmentSelector `t=start,end`); replies in its thread are Annotations replying to it. Private feedback is listed only to those who see it.",
    query: z.object({ page: z.coerce.number().int().min(0).max(100_000).optional() }),
    answers: { 200: { bytes: "An AnnotationCollection, or one of its AnnotationPages", types: [ANNOTATION_MEDIA_TYPE] }, 404: REFUSAL },
    handle: async ({ ctx, member, query, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const origin = new URL(ctx.request.url).origin;
      const answer =
        query.page === undefined
          ? await annotationCollection(member.user.id, item, origin)
          : { "@context": ANNOTATION_CONTEXT, ...(await annotationPage(member.user.id, item, origin, query.page)).page };
      return new Response(JSON.stringify(answer), { headers: { "Content-Type": ANNOTATION_MEDIA_TYPE } });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/comments/{id}",
    summary: "Delete your own comment",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) =>
      (await deleteComment(member.user.id, Number(id))) ? ok(null) : notFound(ctx.language, "item"),
  }),
  followCall("POST"),
  followCall("DELETE"),
  forMember({
    method: "GET",
    path: "/ranking",
    summary:
      "The ranking as last recomputed (ties share a rank) and your own score counted now, with its breakdown and its place in that ranking",
    answers: { 200: answers.ranking },
    handle: async ({ member }) => {
      const me = await scoreFor(member.user.id, Date.now());
      return ok({ ranking: await rankingList(), me: { ...me, breakdown: snakeKeys(me.breakdown) } });
    },
  }),
  forMember({
    method: "GET",
    path: "/points",
    summary: "Your points ledger: the 50 newest awards, the total over the last 30 days, and the rules (amount and daily cap per reason)",
    answers: { 200: answers.points },
    handle: async ({ ctx, member }) => {
      const ledger = await pointsLedger(member.user.id, ctx.now);
      const awards = ledger.awards.map((award) => ({ ...award, reason: snakeName(award.reason) }));
      return ok({ ...ledger, awards, rules: snakeKeys(ledger.rules) });
    },
  }),
];
