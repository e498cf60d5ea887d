import { findContent } from "~/.server/content/content";
import { statsQuerySchema } from "~/.server/stats/query";
import { itemStats, memberStats, scoreHistory } from "~/.server/stats/stats";
import { STAT_ITEMS_PAGE } from "~/lib/stats-periods";
import * as answers from "./answers";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// A member's statistics over the services the pages use (decision 0039): their own, an item's
// (its owner's only), and their score's history.

export const statsRoutes = [
  forMember({
    method: "GET",
    path: "/stats/me",
    summary:
      "Your statistics over the last 30 days, 12 months or all time, per day, week or month: views, downloads, citation exports, likes, comments, new followers, with your items (50 a page)",
    query: statsQuerySchema,
    answers: { 200: answers.memberStats },
    handle: async ({ ctx, member, query }) => {
      const { overview, items } = await memberStats(member.user.id, query, ctx.now);
      const start = (query.page - 1) * STAT_ITEMS_PAGE;
      return ok({ ...overview, items: items.slice(start, start + STAT_ITEMS_PAGE), has_more: items.length > start + STAT_ITEMS_PAGE });
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/stats",
    summary: "The item's statistics and its readers by account type: its owner only (404 for anyone else)",
    query: statsQuerySchema.pick({ range: true, per: true }),
    answers: { 200: answers.itemStats, 404: REFUSAL },
    handle: async ({ ctx, member, query, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item || item.owner_id !== member.user.id) return notFound(ctx.language, "item");
      const { overview, readers } = await itemStats(item.id, member.user.id, query, ctx.now);
      return ok({ ...overview, readers });
    },
  }),
  forMember({
    method: "GET",
    path: "/ranking/me/history",
    summary: "Your credit score and rank at each recomputation of the ranking, oldest first",
    answers: { 200: answers.scoreHistory },
    handle: async ({ member }) => ok({ history: await scoreHistory(member.user.id) }),
  }),
];
