import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { handleApi } from "~/api/router";
import * as upload from "~/routes/upload";
import { newMember, testCaller } from "./helpers";
import { callRoute } from "./route";

// Filling a form from a DOI, against the stand-in resolver (scripts/fake-orcid.mjs): it answers CSL-JSON
// by content negotiation after a redirect, 404 for an unknown DOI, 503 for 10.5555/stand-in.fail and
// never in time for 10.5555/stand-in.slow.

async function prefill(token: string, doi: string) {
  const { caller, settle } = testCaller();
  const request = new Request("https://app.test/api/contents/prefill", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ doi }),
  });
  const response = await handleApi({ ...caller, request });
  await settle();
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> | null; message: string } };
}

describe("filling an upload from a DOI", () => {
  it("answers the record's title, authors with their iDs, abstract as plain text, keywords and year", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const { status, body } = await prefill(token, "https://doi.org/10.5555/RC.2024.001");
    expect(status).toBe(200);
    expect(body.data).toEqual({
      doi: "10.5555/rc.2024.001",
      title: "Groundwater recharge in semi-arid basins after managed aquifer recharge",
      authors: [
        { name: "Josiah Carberry", orcid: "0000-0002-1825-0097" },
        { name: "Mariam Haddad", orcid: null },
      ],
      summary: "We measure how managed aquifer recharge changes groundwater levels in three semi-arid basins.",
      keywords: "groundwater, aquifer recharge, drylands",
      year: 2024,
    });
  });

  it("leaves the member out of the co-authors when the record lists their linked iD", async () => {
    const member = await newMember("Kenji Mori");
    await env.DB.prepare("UPDATE users SET orcid = '0000-0003-1415-9269' WHERE id = ?").bind(member).run();
    const { body } = await prefill(await createSession(member, Date.now()), "10.5555/rc.2023.042");
    expect(body.data).toMatchObject({
      title: "Solar desalination for island schools",
      authors: [{ name: "Ana Silva", orcid: null }],
      year: 2023,
    });
    expect(body.data?.keywords).toBe("desalination, schools");
  });

  it("refuses a malformed DOI, one not found, a failing resolver and a slow one, each with its own message", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const cases = await Promise.all([
      prefill(token, "not a doi"),
      prefill(token, "10.5555/nobody.knows"),
      prefill(token, "10.5555/stand-in.fail"),
      prefill(token, "10.5555/stand-in.slow"),
    ]);
    expect(cases.map((c) => [c.status, c.body.message])).toEqual([
      [400, "Enter a DOI such as 10.1234/abc, or a https://doi.org/ link"],
      [404, "No record was found for this DOI."],
      [502, "The DOI resolver did not answer in time: try again, or fill the fields yourself."],
      [504, "The DOI resolver did not answer in time: try again, or fill the fields yourself."],
    ]);
  });

  it("without a script: the button posts the form, which comes back filled, or as typed with the reason", async () => {
    const member = await newMember("Filler");
    const token = await createSession(member, Date.now());
    const typed = {
      intent: "prefill",
      title: "My own title",
      summary: "typed",
      doi: "10.5555/rc.2021.017",
      sdg: "6",
      client_key: "k-12345678",
    };
    const filled = await callRoute<{ result: { initialValue: Record<string, string>; filled: boolean }; notice: string }>(upload, {
      path: "/upload",
      token,
      form: typed,
    });
    expect(filled.status).toBe(200);
    expect(filled.data.notice).toBe("notify.doiFilled");
    expect(filled.data.result.initialValue).toMatchObject({
      title: "都市の水安全保障と気候適応",
      summary: "都市の水供給を気候変動に適応させる方法を比較する。",
      authors: "田中 愛子\nJosiah Carberry, 0000-0002-1825-0097",
      year: "2021",
      sdg: "6",
      client_key: "k-12345678",
    });
    const refused = await callRoute<{ result: { initialValue: Record<string, string>; error: Record<string, string[]> } }>(upload, {
      path: "/upload",
      token,
      form: { ...typed, doi: "10.5555/nobody.knows" },
    });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error).toEqual({ doi: ["validation.doiNotFound"] });
    expect(refused.data.result.initialValue).toMatchObject({ title: "My own title", summary: "typed", doi: "10.5555/nobody.knows" });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(member).first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("starts an upload from an ORCID work's DOI by its link", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const page = await callRoute<{ start: { result: { initialValue: Record<string, string> } } }>(upload, {
      path: "/upload?doi=10.5555%2Frc.2024.001",
      token,
    });
    expect(page.data.start.result.initialValue).toMatchObject({
      title: "Groundwater recharge in semi-arid basins after managed aquifer recharge",
      // The form's own defaults stay under what the work fills in.
      kind: "document",
      publicize: "1",
      license: "CC-BY-4.0",
    });
  });
});
