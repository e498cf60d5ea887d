import { z } from "zod";
import { TAG_MAX } from "~/lib/limits";
import { requiredLine } from "./text";

/** Adding a profile tag: a default's name (in any language) or the member's own words. */
export const tagSchema = z.object({ tag: requiredLine("tag", TAG_MAX) });
