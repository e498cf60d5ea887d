import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { latestVerification, submitVerification } from "~/.server/members/verification";
import { addComment } from "~/.server/social/social";
import * as root from "~/root";
import * as detail from "~/routes/content-detail/route";
import * as files from "~/routes/files";
import * as moderation from "~/routes/moderation";
import * as report from "~/routes/report";
import * as review from "~/routes/review";
import { pngBytes } from "../../fixtures/files";
import { newItem, newMember, postedPhotos } from "../helpers";
import { callRoute, sessionFor } from "../route";
import { flashOf, signedIn } from "./page-helpers";

// The safety pages: the report form's action (POST /report), the moderators' queue and the
// reviewers' queue. Who may open them and what each decision does; the queues' looks stay in tests/e2e.

async function withRole(name: string, role?: "moderator" | "reviewer") {
  const member = await signedIn(name);
  if (role) await env.DB.prepare("INSERT INTO member_roles (user_id, role, granted_at) VALUES (?, ?, 0)").bind(member.id, role).run();
  return member;
}

/** An item with a comment by another member on it: something to report. */
async function commented(body = "Cheap pills at example dot com") {
  const owner = await newMember("Owner");
  const spammer = await newMember("Spammer");
  const item = await newItem(owner);
  await addComment(spammer, item, body, Date.now());
  const comment = await env.DB.prepare("SELECT id FROM comments WHERE content_id = ?").bind(item).first<number>("id");
  return { item, spammer, comment: comment ?? 0 };
}

const reportsOn = (type: string, id: number) =>
  env.DB.prepare("SELECT reporter_id, reason, details, resolved_at, outcome FROM reports WHERE target_type = ? AND target_id = ?")
    .bind(type, id)
    .all()
    .then((r) => r.results);

describe("POST /report", () => {
  it("files a report and goes back where the form was with a thanks; a repeat stores one", async () => {
    const me = await signedIn("Reporter");
    const { comment, item } = await commented();
    const back = `/retrieval/detail?id=${item}`;
    const form = { target_type: "comment", target_id: String(comment), reason: "spam", details: "Advertising, not research", back };
    for (let i = 0; i < 2; i++) {
      const answer = await callRoute(report, { path: "/report", token: me.token, form, inLayout: false });
      expect([answer.status, answer.location]).toEqual([303, back]);
      expect(flashOf(answer)).toMatchObject({ kind: "success", key: "safety.reportReceived" });
    }
    expect(await reportsOn("comment", comment)).toEqual([
      { reporter_id: me.id, reason: "spam", details: "Advertising, not research", resolved_at: null, outcome: null },
    ]);
  });

  it("says what was wrong with the form, files nothing, and never sends the browser to another site", async () => {
    const me = await signedIn("Reporter");
    const { comment } = await commented();
    const base = { target_type: "comment", target_id: String(comment), reason: "spam", back: "/home?from=report" };
    for (const [form, key] of [
      [{ ...base, reason: "" }, "validation.inputEmpty"],
      [{ ...base, target_type: "planet" }, "notify.requestFailed"],
      [{ ...base, target_id: "-3" }, "notify.requestFailed"],
      [{ ...base, details: "x".repeat(501) }, "safety.detailsTooLong"],
    ] as const) {
      const answer = await callRoute(report, { path: "/report", token: me.token, form, inLayout: false });
      expect([answer.status, answer.location], key).toEqual([303, "/home?from=report"]);
      expect(flashOf(answer)).toMatchObject({ kind: "error", key });
    }
    const away = await callRoute(report, {
      path: "/report",
      token: me.token,
      form: { ...base, back: "https://evil.example/" },
      inLayout: false,
    });
    expect(away.location).toBe("/home");
    expect((await reportsOn("comment", comment)).length).toBe(1); // only the last, valid one
  });

  it("refuses a report on one's own comment or on something that does not exist, without saying why", async () => {
    const { comment, spammer } = await commented();
    const token = await sessionFor(spammer);
    for (const target_id of [String(comment), "999999"]) {
      const answer = await callRoute(report, {
        path: "/report",
        token,
        form: { target_type: "comment", target_id, reason: "spam", back: "/home" },
        inLayout: false,
      });
      expect([answer.status, answer.location]).toEqual([303, "/home"]);
      expect(flashOf(answer)).toMatchObject({ kind: "error", key: "safety.notAvailable" });
    }
    expect(await reportsOn("comment", comment)).toEqual([]);
  });

  it("is for members only, and its address alone goes home", async () => {
    const visitor = await callRoute(report, {
      path: "/report",
      form: { target_type: "member", target_id: "1", reason: "spam" },
      inLayout: false,
    });
    expect([visitor.status, visitor.location]).toEqual([302, "/login?redirect=%2Freport"]);
    const opened = await callRoute(report, { path: "/report", inLayout: false });
    expect([opened.status, opened.location]).toEqual([302, "/home"]);
  });
});

describe("/moderation", () => {
  it("is the /401 page with status 403 for a member without the role, who decides nothing", async () => {
    const { comment } = await commented();
    const reporter = await signedIn("Reporter");
    await callRoute(report, {
      path: "/report",
      token: reporter.token,
      form: { target_type: "comment", target_id: String(comment), reason: "spam" },
      inLayout: false,
    });
    const reviewer = await withRole("Reviewer only", "reviewer");
    for (const token of [reporter.token, reviewer.token]) {
      expect((await callRoute(moderation, { path: "/moderation", token })).status).toBe(403);
      const decided = await callRoute(moderation, {
        path: "/moderation",
        token,
        form: { target_type: "comment", target_id: String(comment), action: "hide", reason: "spam" },
      });
      expect(decided.status).toBe(403);
    }
    expect(await env.DB.prepare("SELECT hidden_at FROM comments WHERE id = ?").bind(comment).first("hidden_at")).toBeNull();
    const visitor = await callRoute(moderation, { path: "/moderation" });
    expect([visitor.status, visitor.location]).toEqual([302, "/login?redirect=%2Fmoderation"]);
  });

  it("lists a reported comment for a moderator, who hides it with a notice; the report is resolved", async () => {
    const text = `Cheap pills ${crypto.randomUUID()}`;
    const { comment } = await commented(text);
    const reporter = await signedIn("Reporter");
    await callRoute(report, {
      path: "/report",
      token: reporter.token,
      form: { target_type: "comment", target_id: String(comment), reason: "spam", details: "Advertising" },
      inLayout: false,
    });
    const mod = await withRole("Moderator", "moderator");
    const queue = await callRoute<{ reports: { target_type: string; target_id: number; preview: string | null }[] }>(moderation, {
      path: "/moderation",
      token: mod.token,
    });
    expect(queue.status).toBe(200);
    expect(queue.data.reports).toContainEqual(expect.objectContaining({ target_type: "comment", target_id: comment, preview: text }));
    const decided = await callRoute(moderation, {
      path: "/moderation",
      token: mod.token,
      form: { target_type: "comment", target_id: String(comment), action: "hide", reason: "spam" },
    });
    expect([decided.status, decided.location]).toEqual([303, "/moderation"]);
    expect(flashOf(decided)).toMatchObject({ kind: "success", key: "safety.decided" });
    expect(await env.DB.prepare("SELECT hidden_at FROM comments WHERE id = ?").bind(comment).first("hidden_at")).not.toBeNull();
    expect(await reportsOn("comment", comment)).toEqual([expect.objectContaining({ outcome: "hide", resolved_at: expect.any(Number) })]);
    const after = await callRoute<{ reports: { target_id: number }[]; hidden: unknown[] }>(moderation, {
      path: "/moderation",
      token: mod.token,
    });
    expect(after.data.reports.map((r) => r.target_id)).not.toContain(comment);
  });

  it("answers 400 for a decision it cannot read and 404 for one on nothing reported, changing nothing", async () => {
    const { comment } = await commented();
    const mod = await withRole("Moderator", "moderator");
    const decide = (form: Record<string, string>) => callRoute(moderation, { path: "/moderation", token: mod.token, form });
    expect((await decide({ target_type: "comment", target_id: String(comment), action: "nuke" })).status).toBe(400);
    expect((await decide({ target_type: "comment", target_id: "x", action: "hide" })).status).toBe(400);
    expect((await decide({ target_type: "comment", target_id: String(comment), action: "hide" })).status).toBe(404);
    expect(await env.DB.prepare("SELECT hidden_at FROM comments WHERE id = ?").bind(comment).first("hidden_at")).toBeNull();
  });
});

const PERSONAL = { name: "Aiko Tanaka", idNumber: "X1234567", address: "1-1 Chiyoda", contactPhone: "+81312345678" };

async function pending() {
  const applicant = await newMember("Applicant");
  const photos = { idFront: [pngBytes(40, 30)], idBack: [pngBytes(40, 30)] };
  await submitVerification(applicant, "personal", PERSONAL, await postedPhotos("personal", photos), Date.now());
  const latest = await latestVerification(applicant);
  return { applicant, id: latest?.id ?? 0 };
}

describe("/review", () => {
  it("is for reviewers only: 403 for a member or a moderator, who decide nothing", async () => {
    const { applicant, id } = await pending();
    for (const role of [undefined, "moderator"] as const) {
      const { token } = await withRole("Not a reviewer", role);
      expect((await callRoute(review, { path: "/review", token })).status).toBe(403);
      expect((await callRoute(review, { path: "/review", token, form: { id: String(id), decision: "approve" } })).status).toBe(403);
    }
    expect((await latestVerification(applicant))?.status).toBe("pending");
    const visitor = await callRoute(review, { path: "/review" });
    expect([visitor.status, visitor.location]).toEqual([302, "/login?redirect=%2Freview"]);
  });

  it("lists a pending submission; a rejection needs a reason, and a decision is taken once", async () => {
    const { applicant, id } = await pending();
    const reviewer = await withRole("Reviewer", "reviewer");
    const queue = await callRoute<{ queue: { id: number }[] }>(review, { path: "/review", token: reviewer.token });
    expect(queue.data.queue.map((v) => v.id)).toContain(id);
    const decide = (form: Record<string, string>) => callRoute(review, { path: "/review", token: reviewer.token, form });

    const noReason = await decide({ id: String(id), decision: "reject", reason: " " });
    expect([noReason.status, noReason.location]).toEqual([303, "/review"]);
    expect(flashOf(noReason)).toMatchObject({ kind: "error", key: "verification.reasonNeeded" });
    // The next page shows it (a notice of any kind of refusal, not only some namespaces').
    const shown = await callRoute<{ flash: { key: string } | null }>(root, {
      path: "/review",
      token: reviewer.token,
      cookies: { flash: noReason.cookies.flash ?? "" },
      inLayout: false,
    });
    expect(shown.data.flash).toMatchObject({ kind: "error", key: "verification.reasonNeeded" });
    expect((await latestVerification(applicant))?.status).toBe("pending");

    const rejected = await decide({ id: String(id), decision: "reject", reason: "The photo is blurred" });
    expect([rejected.status, rejected.location]).toEqual([303, "/review"]);
    expect(flashOf(rejected)).toMatchObject({ kind: "success", key: "notify.verificationDecided" });
    expect(await latestVerification(applicant)).toMatchObject({ status: "rejected", reason: "The photo is blurred" });

    const again = await decide({ id: String(id), decision: "approve" });
    expect(flashOf(again)).toMatchObject({ kind: "error", key: "verification.notDecided" });
    expect((await latestVerification(applicant))?.status).toBe("rejected");
  });

  it("does not let a reviewer decide their own submission", async () => {
    const reviewer = await withRole("Reviewer", "reviewer");
    const photos = { idFront: [pngBytes(40, 30)], idBack: [pngBytes(40, 30)] };
    await submitVerification(reviewer.id, "personal", PERSONAL, await postedPhotos("personal", photos), Date.now());
    const own = await latestVerification(reviewer.id);
    const answer = await callRoute(review, { path: "/review", token: reviewer.token, form: { id: String(own?.id), decision: "approve" } });
    expect(flashOf(answer)).toMatchObject({ kind: "error", key: "verification.notDecided" });
    expect((await latestVerification(reviewer.id))?.status).toBe("pending");
  });
});

describe("a hidden upload", () => {
  it("opens read-only for a moderator deciding on it (no view counted, no like), and stays 404 for other members", async () => {
    const owner = await newMember("Owner");
    const item = await newItem(owner);
    await env.DB.prepare("UPDATE content SET hidden_at = 1, hidden_publicize = publicize, publicize = 0 WHERE id = ?").bind(item).run();
    const key = await env.DB.prepare("SELECT file_key FROM content WHERE id = ?").bind(item).first<string>("file_key");
    await env.FILES.put(key ?? "", "%PDF-1.4 the reported file", { httpMetadata: { contentType: "application/pdf" } });
    const moderator = await withRole("Moderator", "moderator");
    const member = await signedIn("Member");
    const path = `/retrieval/detail?id=${item}`;
    const seen = await callRoute<{ moderating: boolean; item: { views: number } }>(detail, { path, token: moderator.token });
    expect([seen.status, seen.data.moderating, seen.data.item.views]).toEqual([200, true, 0]);
    expect((await callRoute(detail, { path, token: member.token })).status).toBe(404);
    // Its file too, for the moderator only.
    expect(
      (await callRoute(files, { path: `/files/${item}`, params: { id: String(item) }, token: member.token, inLayout: false })).status,
    ).toBe(404);
    const file = await callRoute(files, { path: `/files/${item}`, params: { id: String(item) }, token: moderator.token, inLayout: false });
    expect([file.status, file.body]).toEqual([200, "%PDF-1.4 the reported file"]);
    // Read-only: a like from the moderator is refused as from anyone who cannot see it.
    const like = await callRoute(detail, { path, token: moderator.token, form: { intent: "like" } });
    expect(like.status).toBe(404);
    expect(await env.DB.prepare("SELECT likes FROM content WHERE id = ?").bind(item).first("likes")).toBe(0);
  });
});
