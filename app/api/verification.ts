import { z } from "zod";
import { postedOf } from "~/.server/http/body";
import { translator } from "~/.server/i18n/translate";
import {
  decideVerification,
  latestVerification,
  verificationKindOf,
  verificationPhoto,
  verificationQueue,
} from "~/.server/members/verification";
import { submitPostedVerification } from "~/.server/members/verification-form";
import { photoHeaders } from "~/.server/web/files/member-files";
import { reviewSchema } from "~/lib/schemas/verification";
import * as answers from "./answers";
import { camelName, snakeKeys, snakeName } from "./casing";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// Identity verification and the reviewers' queue, over the service the pages use.

const photoUrl = (id: number, name: string) => `/api/review/verifications/${id}/photos/${name}`;

export const verificationRoutes = [
  forMember({
    method: "GET",
    path: "/verification",
    summary: "Your verification: the kind your account takes, the status (none, pending, approved, rejected) and a rejection's reason",
    answers: { 200: answers.verificationStatus },
    handle: async ({ member }) => {
      const latest = await latestVerification(member.user.id);
      return ok({ kind: verificationKindOf(member.user.kind), status: latest?.status ?? "none", reason: latest?.reason ?? null });
    },
  }),
  forMember({
    method: "POST",
    path: "/verification",
    summary:
      "Submit your verification as multipart/form-data: the text fields and photos of your kind (PNG or JPG, 5 MB each, 25 MB in all)",
    description:
      "Personal: name, id_number, address, contact_phone, id_front, id_back, and up to three optional extra images. Corporate: company_name, registration_number, legal_name, legal_id_number, license, legal_id_front, legal_id_back. 409 while one is pending or approved.",
    answers: { 201: z.null(), 400: REFUSAL, 409: REFUSAL, 413: REFUSAL },
    handle: async ({ ctx, member }) => {
      const t = translator(ctx.language);
      await submitPostedVerification(postedOf(ctx.request), member.user.id, verificationKindOf(member.user.kind), ctx.now, camelName);
      return ok(null, t("notify.verificationSent"), { status: 201 });
    },
  }),
  forMember({
    method: "GET",
    path: "/review/verifications",
    role: "reviewer",
    summary: "The pending verifications, oldest first, with links to their photos",
    answers: { 200: answers.reviewQueue },
    handle: async () =>
      ok({
        queue: (await verificationQueue()).map(({ photos, user_id, fields, ...item }) => ({
          ...item,
          // Stored under the form's names; the API names them as POST /verification takes them.
          fields: snakeKeys(fields),
          // What the queue holds is pending: not decided, no reason yet.
          status: "pending" as const,
          reason: null,
          decided_at: null,
          user_id,
          photos: Object.keys(photos).map((name) => ({ name: snakeName(name), url: photoUrl(item.id, snakeName(name)) })),
        })),
      }),
  }),
  forMember({
    method: "GET",
    path: "/review/verifications/{id}/photos/{photo}",
    role: "reviewer",
    summary: "One photo of a submission (never cached)",
    answers: { 200: { bytes: "The image", types: ["image/png", "image/jpeg"] }, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id, photo] }) => {
      const object = await verificationPhoto(member.user, Number(id), camelName(photo ?? ""));
      if (!object) return notFound(ctx.language, "item");
      return new Response(object.body, { headers: photoHeaders(object) });
    },
  }),
  forMember({
    method: "POST",
    path: "/review/verifications/{id}",
    role: "reviewer",
    summary: "Approve a pending verification, or reject it with a reason; the member is mailed",
    body: reviewSchema,
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) =>
      (await decideVerification(member.user.id, Number(id), body, ctx.now, ctx.waitUntil))
        ? ok(null, translator(ctx.language)("notify.verificationDecided"))
        : notFound(ctx.language, "item"),
  }),
];
