import { describe, expect, it } from "vitest";
import { addTag, listTags, removeTag } from "~/.server/members/tags";
import { TAG_LIMITS } from "~/lib/limits";
import { newMember, refusedKey } from "./helpers";

describe("profile tags", () => {
  it("hold each level's limit when many are added at once", async () => {
    for (const level of ["free", "regular", "premium"] as const) {
      const me = await newMember(`Tagger ${level}`);
      const words = Array.from({ length: TAG_LIMITS[level] + 4 }, (_, i) => `topic ${i}`);
      const refusals = await Promise.all(words.map((w) => refusedKey(addTag(me, level, w, 1))));
      expect((await listTags(me)).length, level).toBe(TAG_LIMITS[level]);
      expect(refusals.filter((r) => r === null).length).toBe(TAG_LIMITS[level]);
      expect(refusals.filter((r) => r !== null)).toEqual(Array(4).fill(`validation.maxTags|max=${TAG_LIMITS[level]}`));
    }
  });

  it("store a default by its key whatever language names it, a member's own words as written, and refuse a repeat", async () => {
    const me = await newMember("Tag Words");
    expect(await refusedKey(addTag(me, "premium", "健康", 1))).toBeNull();
    expect(await refusedKey(addTag(me, "premium", "Coral reefs", 2))).toBeNull();
    expect(await refusedKey(addTag(me, "premium", "HEALTH", 3))).toBe("validation.repeatAddition");
    expect(await refusedKey(addTag(me, "premium", "coral REEFS", 4))).toBe("validation.repeatAddition");
    expect(await refusedKey(addTag(me, "premium", "社会变革", 5))).toBeNull();
    const tags = await listTags(me);
    expect(tags.map(({ tag, custom }) => [tag, custom])).toEqual([
      ["health", 0],
      ["Coral reefs", 1],
      ["socialChange", 0],
    ]);
    const other = await newMember("Not Owner");
    expect(await removeTag(other, tags[0]?.id ?? 0)).toBe(false);
    expect(await removeTag(me, tags[0]?.id ?? 0)).toBe(true);
    expect((await listTags(me)).length).toBe(2);
  });
});
