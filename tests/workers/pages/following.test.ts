import { describe, expect, it } from "vitest";
import { followingOf } from "~/.server/notifications/new-items";
import * as discovery from "~/routes/discovery";
import * as retrieval from "~/routes/retrieval";
import * as notificationSettings from "~/routes/settings/notifications";
import { callRoute } from "../route";
import { flashOf, signedIn } from "./page-helpers";

// Following a goal from Discovery, saving a search from Retrieval, and undoing both from Settings:
// plain forms (issue 33, decision 0040).

describe("following goals and saving searches, without a script", () => {
  it("follows the goal shown, saves the search shown, and removes both from Settings", async () => {
    const me = await signedIn();
    const page = await callRoute<{ following: boolean }>(discovery, { path: "/discovery?sdg=6", token: me.token });
    expect(page.data.following).toBe(false);
    const followed = await callRoute(discovery, { path: "/discovery?sdg=6", token: me.token, form: { intent: "follow-goal", sdg: "6" } });
    expect([followed.status, followed.location, flashOf(followed)?.key]).toEqual([303, "/discovery?sdg=6", "notify.goalFollowed"]);
    expect((await callRoute<{ following: boolean }>(discovery, { path: "/discovery?sdg=6", token: me.token })).data.following).toBe(true);
    expect((await callRoute(discovery, { path: "/discovery", token: me.token, form: { intent: "follow-goal", sdg: "18" } })).status).toBe(
      400,
    );

    const form = { intent: "save-search", q: "clean water", tab: "documents", sdg: "6" };
    const saved = await callRoute(retrieval, { path: "/retrieval?q=clean+water", token: me.token, form });
    expect([saved.status, saved.location, flashOf(saved)?.key]).toEqual([
      303,
      "/retrieval?q=clean+water&tab=documents&sdg=6",
      "notify.searchSaved",
    ]);
    const empty = await callRoute(retrieval, { path: "/retrieval", token: me.token, form: { ...form, q: " " } });
    expect(flashOf(empty)).toMatchObject({ kind: "error", key: "validation.savedSearchEmpty" });
    const following = await followingOf(me.id);
    expect(following).toMatchObject({ goals: [6], searches: [{ q: "clean water", kind: "document", sdg: 6 }] });

    const id = String(following.searches[0]?.id);
    const path = "/personal/Setting/notifications";
    await callRoute(notificationSettings, { path, token: me.token, form: { intent: "delete-search", id } });
    await callRoute(notificationSettings, { path, token: me.token, form: { intent: "unfollow-goal", sdg: "6" } });
    expect(await followingOf(me.id)).toEqual({ goals: [], searches: [] });
  });
});
