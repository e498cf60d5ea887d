import { z } from "zod";
import { changePassword } from "~/.server/accounts/accounts";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { exportData } from "~/.server/accounts/export-data";
import { translator } from "~/.server/i18n/translate";
import { removeAvatar, setAvatar } from "~/.server/members/avatar";
import { profileOf, saveProfile } from "~/.server/members/profile-settings";
import { AVATAR_SIZE, AVATAR_UPLOAD_MB, DECODE_MAX_MEGAPIXELS } from "~/lib/limits";
import { changePasswordSchema, deleteAccountSchema } from "~/lib/schemas/auth";
import { anyProfileSchema } from "~/lib/schemas/profile";
import * as answers from "./answers";
import { snakeCased } from "./casing";
import { forMember } from "./define";
import { ok } from "./envelope";

// The settings page's calls: the profile (spec section 3) and the password, over the same services.

export const settingsRoutes = [
  forMember({
    method: "GET",
    path: "/settings/profile",
    summary: "Your profile as saved (null until the first save), with your account type and kind, which never change",
    answers: { 200: answers.profileSettings },
    handle: async ({ member }) =>
      ok({
        account_type: member.user.account_type,
        kind: member.user.kind,
        nick_name: member.user.nick_name,
        profile: await profileOf(member.user.id),
      }),
  }),
  forMember({
    method: "PUT",
    path: "/settings/profile",
    summary: "Save your profile: every field required ('{field} cannot be empty'), a facilitator's organisation fields too",
    description:
      "Countries are ISO 3166-1 alpha-2 codes; the birthday a past date (YYYY-MM-DD); phones in international format (+ and the country code); the website http(s). `public` shows names, academic field, research and country on your Space and in member search.",
    body: snakeCased(anyProfileSchema),
    answers: { 200: z.null() },
    handle: async ({ ctx, member, body }) => {
      // The organisation's fields are required of a facilitator (and ignored for an individual).
      await saveProfile(member.user.id, member.user.kind as "individual" | "facilitator", body, ctx.now);
      return ok(null, translator(ctx.language)("notify.updateSuccess"));
    },
  }),
  forMember({
    method: "PUT",
    path: "/settings/avatar",
    summary: `Set your avatar: the image's bytes as the body (PNG or JPG, judged by its bytes; ${AVATAR_UPLOAD_MB} MB and ${DECODE_MAX_MEGAPIXELS} megapixels at most)`,
    description: `Its centre square is scaled to ${AVATAR_SIZE} pixels and saved as a new JPEG, without the file's metadata. Answers the avatar's address.`,
    bytesIn: ["image/png", "image/jpeg"],
    answers: { 200: answers.avatar },
    handle: async ({ ctx, member }) => {
      const { image } = await setAvatar(member.user.id, new Uint8Array(await ctx.request.arrayBuffer()));
      return ok({ image }, translator(ctx.language)("notify.updateSuccess"));
    },
  }),
  forMember({
    method: "DELETE",
    path: "/settings/avatar",
    summary: "Remove your avatar: the default picture shows again",
    answers: { 200: answers.avatar },
    handle: async ({ ctx, member }) => {
      await removeAvatar(member.user.id);
      return ok({ image: null }, translator(ctx.language)("notify.updateSuccess"));
    },
  }),
  forMember({
    method: "PUT",
    path: "/settings/password",
    summary: "Change your password: the current one first; every other session ends, this token stays valid",
    body: snakeCased(changePasswordSchema),
    answers: { 200: z.null() },
    handle: async ({ ctx, member, body }) => {
      await changePassword(member.user.id, member.token, body.currentPassword, body.password, ctx);
      return ok(null, translator(ctx.language)("notify.passwordChanged"));
    },
  }),
  forMember({
    method: "GET",
    path: "/settings/export",
    summary:
      "Download your data: account, profile, tags, interests, uploads' details, comments, messages you sent, follows, likes, points, searches, blocks",
    answers: { 200: { bytes: "One JSON document, streamed", types: ["application/json"] } },
    handle: ({ ctx, member }) =>
      new Response(exportData(member.user.id, ctx.now, new URL(ctx.request.url).origin), {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Content-Disposition": 'attachment; filename="research-commons-data.json"',
        },
      }),
  }),
  forMember({
    method: "DELETE",
    path: "/settings/account",
    summary:
      "Delete your account with your password and confirm: true; every session ends, your files go at once, messages you sent stay in others' conversations from a deleted member",
    body: snakeCased(deleteAccountSchema),
    answers: { 200: z.null() },
    handle: async ({ ctx, member, body }) => {
      await deleteAccount(member.user.id, body.password, ctx);
      return ok(null, translator(ctx.language)("notify.accountDeleted"));
    },
  }),
];
