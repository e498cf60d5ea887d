import { z } from "zod";
import { STAT_RANGES, STAT_SORTS, STAT_STEPS, type StatsQuery } from "~/lib/stats-periods";

/** A statistics page's or call's query: anything unknown falls back to the defaults (30 days, by views). */
export const statsQuerySchema = z.object({
  range: z.enum(STAT_RANGES).catch("30d"),
  per: z.enum(STAT_STEPS).optional().catch(undefined),
  sort: z.enum(STAT_SORTS).catch("views"),
  page: z.coerce.number().int().min(1).max(1000).catch(1),
}) satisfies z.ZodType<StatsQuery>;
