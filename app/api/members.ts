import { z } from "zod";
import { recommended } from "~/.server/content/recommend";
import { addInterest, listInterests, removeInterest } from "~/.server/members/interests";
import { memberPage } from "~/.server/members/profile";
import { addTag, listTags, removeTag } from "~/.server/members/tags";
import { TAG_LIMITS } from "~/lib/limits";
import type { MembershipLevel } from "~/lib/profile-tags";
import { interestSchema } from "~/lib/schemas/content";
import { tagSchema } from "~/lib/schemas/tags";
import * as answers from "./answers";
import type { Member } from "./context";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// Member pages, interests and the recommended list over the services the pages use.

/** A page of the recommended list, 1 to 1000 (anything else reads as the first). */
const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(1000).default(1).catch(1) });

const tagsOf = async (member: Member) => {
  const level = member.user.membership as MembershipLevel;
  return { tags: await listTags(member.user.id), level, limit: TAG_LIMITS[level] };
};

export const memberRoutes = [
  forMember({
    method: "GET",
    path: "/tags",
    summary: "Your profile tags, your membership level and how many tags it allows",
    answers: { 200: answers.tags },
    handle: async ({ member }) => ok(await tagsOf(member)),
  }),
  forMember({
    method: "POST",
    path: "/tags",
    summary:
      "Add a tag: a default's name in any language (stored as its key) or your own words; a repeat answers 'Repeat addition', one past your level's limit is refused",
    body: tagSchema,
    answers: { 201: answers.tags },
    handle: async ({ ctx, member, body }) => {
      await addTag(member.user.id, member.user.membership as MembershipLevel, body.tag, ctx.now);
      return ok(await tagsOf(member), "ok", { status: 201 });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/tags/{id}",
    summary: "Remove one of your tags (idempotent)",
    answers: { 200: answers.tags },
    handle: async ({ member, params: [id] }) => {
      await removeTag(member.user.id, Number(id));
      return ok(await tagsOf(member));
    },
  }),
  forMember({
    method: "GET",
    path: "/members/{id}",
    summary: "A member's page: profile basics, follower and following counts and lists, uploads, interests, and whether you follow them",
    answers: { 200: answers.memberPage, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const page = await memberPage(member.user.id, Number(id));
      return page ? ok(page) : notFound(ctx.language, "member");
    },
  }),
  forMember({
    method: "GET",
    path: "/interests",
    summary: "Your interests (goals 1-17)",
    answers: { 200: answers.interests },
    handle: async ({ member }) => ok({ interests: await listInterests(member.user.id) }),
  }),
  forMember({
    method: "POST",
    path: "/interests",
    summary: "Add an interest; at most 5, and a repeat is refused ('Repeat addition')",
    body: interestSchema,
    answers: { 201: answers.interests },
    handle: async ({ ctx, member, body }) => {
      await addInterest(member.user.id, body.sdg, ctx.now);
      return ok({ interests: await listInterests(member.user.id) }, "ok", { status: 201 });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/interests/{sdg}",
    summary: "Remove an interest (idempotent)",
    answers: { 200: answers.interests },
    handle: async ({ member, params: [sdg] }) => {
      await removeInterest(member.user.id, Number(sdg));
      return ok({ interests: await listInterests(member.user.id) });
    },
  }),
  forMember({
    method: "GET",
    path: "/recommendations",
    summary: "Your recommended list (12 a page): from members you follow and your interests first, then by popularity",
    query: pageQuery,
    answers: { 200: answers.recommendations },
    handle: async ({ member, query: { page } }) => ok({ ...(await recommended(member.user.id, page)), page }),
  }),
];
