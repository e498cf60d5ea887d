import { z } from "zod";
import { REPORT_REASONS, REPORT_TARGETS } from "~/lib/choices";
import { REPORT_DETAILS_MAX } from "~/lib/limits";
import { cleanString } from "./text";

/** A member's report: what, why, and optional words. */
export const reportSchema = z.object({
  target_type: z.enum(REPORT_TARGETS, { error: "notify.requestFailed" }),
  target_id: z.coerce.number({ error: "notify.requestFailed" }).int().positive("notify.requestFailed"),
  reason: z.enum(REPORT_REASONS, { error: "validation.inputEmpty" }),
  details: cleanString("validation.inputEmpty").max(REPORT_DETAILS_MAX, "safety.detailsTooLong").default(""),
});

export const MODERATION_ACTIONS = ["hide", "restore", "warn", "suspend", "unsuspend", "dismiss"] as const;

/** A moderator's decision on a target. */
export const decisionSchema = z.object({
  target_type: z.enum(REPORT_TARGETS),
  target_id: z.coerce.number().int().positive(),
  action: z.enum(MODERATION_ACTIONS),
  reason: z.enum(REPORT_REASONS).default("other"),
});
export type Decision = z.infer<typeof decisionSchema>;
