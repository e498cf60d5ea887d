import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { addFunding, fundingOf } from "~/.server/content/funding";
import { postedOf } from "~/.server/http/body";
import { linkOrganisation } from "~/.server/members/organisation";
import { memberPage } from "~/.server/members/profile";
import {
  decideVerification,
  deleteVerificationPhotos,
  discardPhotos,
  latestVerification,
  submitVerification,
  verificationPhoto,
  verificationQueue,
} from "~/.server/members/verification";
import { readVerification } from "~/.server/members/verification-form";
import { listNotifications, setChannels } from "~/.server/notifications/notifications";
import { VERIFICATION_BODY_MB, VERIFICATION_PHOTO_DAYS, VERIFICATION_PHOTO_MB } from "~/lib/limits";
import { fundingSchema } from "~/lib/schemas/funding";
import { htmlBytes, multipart, pngBytes } from "../fixtures/files";
import { newItem, newMember, postedPhotos, refusalOf } from "./helpers";

const PERSONAL = { name: "Aiko Tanaka", idNumber: "X1234567", address: "1-1 Chiyoda", contactPhone: "+81312345678" };
const CORPORATE = { companyName: "Tsinghua Fund", registrationNumber: "R-1", legalName: "Rep Resentative", legalIdNumber: "L-1" };
const photos = () => ({ idFront: [pngBytes(40, 30)], idBack: [pngBytes(40, 30)] });
/** Submits; answers what was refused ({key, field, status}), or "not refused". */
const submit = async (userId: number, files: Record<string, Uint8Array[]> = photos(), now = 1) =>
  refusalOf(submitVerification(userId, "personal", PERSONAL, await postedPhotos("personal", files), now));

describe("identity verification", () => {
  it("judges photos by their bytes: a file posing as PNG or JPG, or a missing photo, is refused and nothing is stored", async () => {
    const me = await newMember("Poser");
    const posing = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...htmlBytes()]);
    expect(await submit(me, { idFront: [posing], idBack: [pngBytes()] })).toEqual({
      field: "idFront",
      key: "validation.imageType",
      status: 400,
    });
    expect(await submit(me, { idFront: [pngBytes()], idBack: [htmlBytes()] })).toMatchObject({
      field: "idBack",
      key: "validation.imageType",
    });
    expect(await submit(me, { idFront: [pngBytes()], idBack: [] })).toMatchObject({
      field: "idBack",
      key: "validation.fieldEmpty|field=fields.idBack",
    });
    expect(await latestVerification(me)).toBeNull();
  });

  it("stores each photo as its part arrives, never holding the whole body (issue 30)", async () => {
    const big = (fill: number) => Uint8Array.from([...pngBytes(40, 30), ...new Uint8Array(2 * 1024 * 1024).fill(fill)]);
    const { body, contentType } = multipart([
      ...Object.entries(PERSONAL).map(([name, value]) => ({ name, value })),
      { name: "idFront", filename: "front.png", type: "image/png", body: big(1) },
      { name: "idBack", filename: "back.png", type: "image/png", body: big(2) },
    ]);
    // The body as the network hands it over: each read is counted.
    const source = body.getReader();
    let pulled = 0;
    const arriving = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await source.read();
        if (next.done) return controller.close();
        pulled += next.value.byteLength;
        controller.enqueue(next.value);
      },
    });
    const pulledAtPut: number[] = [];
    const put = env.FILES.put.bind(env.FILES);
    const watched = vi.spyOn(env.FILES, "put").mockImplementation(async (...args) => {
      pulledAtPut.push(pulled);
      return put(...args);
    });
    try {
      const request = new Request("https://app.test/personal/verification", {
        method: "POST",
        body: arriving,
        headers: { "Content-Type": contentType },
      });
      const read = await readVerification(postedOf(request), "personal");
      expect(read?.submission.status).toBe("success");
      expect(Object.keys(read?.photos ?? {})).toEqual(["idFront", "idBack"]);
    } finally {
      watched.mockRestore();
    }
    // The front was stored before the back had arrived.
    expect(pulledAtPut).toHaveLength(2);
    expect(pulledAtPut[0]).toBeLessThan(pulled - 2 * 1024 * 1024);
  });

  it("refuses a body over its limit as it arrives and keeps none of its photos; a photo over its own limit is refused alone", async () => {
    const listed = async () => (await env.FILES.list({ prefix: "verification/" })).objects.length;
    const before = await listed();
    const photo = (megabytes: number) => Uint8Array.from([...pngBytes(40, 30), ...new Uint8Array(megabytes * 1024 * 1024)]);
    const post = (parts: Parameters<typeof multipart>[0]) => {
      const { body, contentType } = multipart(parts);
      return new Request("https://app.test/personal/verification", { method: "POST", body, headers: { "Content-Type": contentType } });
    };
    const tooMuch = ["idFront", "idBack", "extra", "extra", "extra", "extra"].map((name) => ({
      name,
      filename: "p.png",
      type: "image/png",
      body: photo(VERIFICATION_BODY_MB / 5),
    }));
    expect(await readVerification(postedOf(post(tooMuch)), "personal")).toBeNull();
    expect(await listed()).toBe(before);

    const oversized = await readVerification(
      postedOf(
        post([
          { name: "idFront", filename: "p.png", type: "image/png", body: photo(VERIFICATION_PHOTO_MB + 1) },
          { name: "idBack", filename: "p.png", type: "image/png", body: photo(1) },
        ]),
      ),
      "personal",
    );
    expect(oversized?.photos.idFront).toEqual([{ refusal: `validation.uploadSize|max=${VERIFICATION_PHOTO_MB}` }]);
    expect(await listed()).toBe(before + 1);
    await discardPhotos(oversized?.photos ?? {});
    expect(await listed()).toBe(before);
  });

  it("keeps one submission open at a time, even when two arrive at once, and removes the refused one's photos", async () => {
    const me = await newMember("Twice");
    const listed = async () => (await env.FILES.list({ prefix: "verification/" })).objects.length;
    const before = await listed();
    const answers = await Promise.all([submit(me), submit(me)]);
    expect(answers.filter((a) => a === "not refused")).toHaveLength(1);
    expect(answers).toContainEqual({ key: "verification.notOpen", field: undefined, status: 409 });
    expect(await listed()).toBe(before + 2);
  });

  it("moves through pending, rejected with a reason, resubmitted and approved; a decision is taken once and mailed", async () => {
    const me = await newMember("Applicant");
    const reviewer = await newMember("Reviewer");
    await submit(me);
    const first = await latestVerification(me);
    expect(first).toMatchObject({ status: "pending", kind: "personal", fields: PERSONAL });
    expect((await verificationQueue()).map((v) => v.id)).toContain(first?.id);
    const mails: Promise<unknown>[] = [];
    expect(
      await decideVerification(reviewer, first?.id ?? 0, { decision: "reject", reason: "The photo is blurred" }, 2, (p) => mails.push(p)),
    ).toBe(true);
    expect(await decideVerification(reviewer, first?.id ?? 0, { decision: "approve" }, 3)).toBe(false);
    await Promise.all(mails);
    expect(await latestVerification(me)).toMatchObject({ status: "rejected", reason: "The photo is blurred" });
    expect(await submit(me, photos(), 4)).toBe("not refused");
    const second = await latestVerification(me);
    expect(await decideVerification(reviewer, second?.id ?? 0, { decision: "approve" }, 5)).toBe(true);
    expect(await submit(me, photos(), 6)).toMatchObject({ key: "verification.notOpen", status: 409 });
    const mailed = await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE body LIKE '%The photo is blurred%'").first("n");
    expect(mailed).toBe(1);
  });

  it("tells a member who chose the app only in the app, without a mail", async () => {
    const me = await newMember("Quiet applicant");
    const reviewer = await newMember("Reviewer");
    await setChannels(me, { verification: "app" });
    await submit(me);
    const row = await latestVerification(me);
    const mails: Promise<unknown>[] = [];
    expect(
      await decideVerification(reviewer, row?.id ?? 0, { decision: "reject", reason: "Quietly blurred" }, 2, (p) => mails.push(p)),
    ).toBe(true);
    await Promise.all(mails);
    expect(mails).toHaveLength(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE body LIKE '%Quietly blurred%'").first("n")).toBe(0);
    expect((await listNotifications(me)).map((n) => `${n.kind}:${n.event}`)).toEqual(["verification:rejected"]);
  });

  it("never lets reviewers decide their own submission", async () => {
    const reviewer = await newMember("Self Reviewer");
    await submit(reviewer);
    const own = await latestVerification(reviewer);
    expect(await decideVerification(reviewer, own?.id ?? 0, { decision: "approve" }, 2)).toBe(false);
    expect((await latestVerification(reviewer))?.status).toBe("pending");
  });

  it("lets only the owner and reviewers reach a photo, whoever asks for whichever photo", async () => {
    const owners = await Promise.all([1, 2, 3].map((i) => newMember(`Owner ${i}`)));
    for (const owner of owners) await submit(owner);
    const ids = await Promise.all(owners.map(async (owner) => (await latestVerification(owner))?.id ?? 0));
    const strangers = await Promise.all([1, 2].map((i) => newMember(`Stranger ${i}`)));
    const viewers = [...owners, ...strangers];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...viewers),
        fc.constantFrom("member", "moderator", "reviewer"),
        fc.constantFrom(...ids.keys()),
        fc.constantFrom("idFront", "idBack", "extra1", "toString", "__proto__"),
        async (viewer, role, which, name) => {
          const roles = role === "member" ? [] : [role];
          const key = await verificationPhoto({ id: viewer, roles }, ids[which] ?? 0, name);
          const allowed = (viewer === owners[which] || role === "reviewer") && (name === "idFront" || name === "idBack");
          expect(key !== null, `${viewer} ${role} ${which} ${name}`).toBe(allowed);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("deletes the photos a fixed time after the decision, and not before", async () => {
    const me = await newMember("Retention");
    const reviewer = await newMember("Retention reviewer");
    await submit(me);
    const row = await latestVerification(me);
    await decideVerification(reviewer, row?.id ?? 0, { decision: "approve" }, 1000);
    const keys = Object.values(row?.photos ?? {});
    await deleteVerificationPhotos(1000 + VERIFICATION_PHOTO_DAYS * 86_400_000 - 1);
    for (const key of keys) expect(await env.FILES.head(key)).not.toBeNull();
    await deleteVerificationPhotos(1000 + VERIFICATION_PHOTO_DAYS * 86_400_000 + 1);
    for (const key of keys) expect(await env.FILES.head(key)).toBeNull();
    expect((await latestVerification(me))?.photos).toEqual({});
  });

  it("confirms the ROR record an organisation sent with its verification, and only while it keeps it linked", async () => {
    const reviewer = await newMember("ROR Reviewer");
    const confirmed = async (member: number) => (await memberPage(member, member))?.member.organisation_ror_confirmed;
    // Research that named the organisation before: the confirmed fund is given it.
    const researcher = await newMember("Tsinghua Researcher");
    const work = await newItem(researcher);
    await addFunding(work, fundingSchema.parse({ funder_name: "Tsinghua", funder_id: "https://ror.org/03cve4549" }), 1);
    /** A member linked to the record sends a verification as `kind`, links `after` (if any), and a reviewer approves it with `confirm`. */
    const approved = async (confirm: boolean, { after, kind = "corporate" }: { after?: string; kind?: "personal" | "corporate" } = {}) => {
      const fund = await newMember("Verified Fund", 2);
      await env.DB.prepare("UPDATE users SET kind = 'facilitator' WHERE id = ?").bind(fund).run();
      await linkOrganisation(fund, "https://ror.org/03cve4549", "en", 1);
      const files = kind === "corporate" ? { license: [pngBytes()], legalIdFront: [pngBytes()], legalIdBack: [pngBytes()] } : photos();
      const fields = kind === "corporate" ? CORPORATE : PERSONAL;
      await submitVerification(fund, kind, fields, await postedPhotos(kind, files), 1);
      if (after) await linkOrganisation(fund, after, "en", 1);
      const sent = await latestVerification(fund);
      // Only an organisation's verification carries its record.
      expect(sent?.ror).toBe(kind === "corporate" ? "https://ror.org/03cve4549" : null);
      expect(await decideVerification(reviewer, sent?.id ?? 0, { decision: "approve", confirm_ror: confirm }, 5)).toBe(true);
      return fund;
    };
    expect(await confirmed(await approved(true, { kind: "personal" }))).toBe(0);
    expect((await fundingOf(work))[0]?.funder_member).toBeNull();
    const fund = await approved(true);
    expect(await confirmed(fund)).toBe(1);
    expect((await fundingOf(work))[0]?.funder_member).toBe(fund);
    // Another record linked later is not the one confirmed: the badge goes, and the work with it.
    await linkOrganisation(fund, "https://ror.org/02v51f717", "en", 2);
    expect(await confirmed(fund)).toBe(0);
    expect((await fundingOf(work))[0]?.funder_member).toBeNull();
    // Approved without confirming it, or after the member linked another one: not confirmed.
    expect(await confirmed(await approved(false))).toBe(0);
    expect(await confirmed(await approved(true, { after: "https://ror.org/02v51f717" }))).toBe(0);
  });
});
