import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { DOI_DEADLINE_MS, mayAsk } from "~/.server/content/doi-prefill";
import { handleApi } from "~/api/router";
import * as upload from "~/routes/upload";
import { SLOW_HOP_MS } from "../../scripts/fake-orcid.mjs";
import { newMember, testCaller } from "./helpers";
import { callRoute } from "./route";

// Filling a form from a DOI, against the stand-in resolver (scripts/fake-orcid.mjs): it answers CSL-JSON
// by content negotiation after a redirect, 404 for an unknown DOI, 503 for 10.5555/stand-in.fail and
// never in time for 10.5555/stand-in.slow; the answers of a hostile or broken resolver (a record that
// never ends or drips, ill-shaped records, redirects elsewhere) have DOIs of their own there too.

/** A resolver's answer that no member should wait for or be given: said as unavailable. */
const UNAVAILABLE = "The DOI resolver did not answer in time: try again, or fill the fields yourself.";
const INVALID = "Enter a DOI such as 10.1234/abc, or a https://doi.org/ link";

/** The requests the stand-in resolver received whose path holds `marker` (a test's own mark). */
async function reached(marker: string) {
  const origin = new URL(env.DOI_RESOLVER_URL).origin;
  const response = await fetch(`${origin}/stand-in/requests?marker=${encodeURIComponent(marker)}`);
  return (await response.json()) as Array<{ path: string; sent: number; closed: boolean }>;
}

const mark = () => crypto.randomUUID().slice(0, 8);

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
      [502, UNAVAILABLE],
      [504, UNAVAILABLE],
    ]);
  });

  it("refuses a DOI with a part a link resolves away, or a lone surrogate, and asks the resolver nothing", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const marker = mark();
    const cases = await Promise.all(
      [
        "10.5555/../../oauth/jwks",
        `10.5555/../../records/${marker}`,
        `https://doi.org/10.5555/./../../records/${marker}`,
        `10.5555/%2e%2e/%2E%2E/records/${marker}`,
        `10.5555/${marker}/..`,
        `10.5555/\uD800${marker}`,
        `10.5555/${marker}\uDC00`,
      ].map((doi) => prefill(token, doi)),
    );
    expect(cases.map((c) => [c.status, c.body.message])).toEqual(Array(7).fill([400, INVALID]));
    expect(await reached(marker)).toEqual([]);
  });

  it("keeps what has the shape it uses from an ill-shaped record, and refuses a record that is not one", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const standIn = (name: string) => prefill(token, `10.5555/stand-in.${name}`);
    const [titleNumber, authorText, authorNulls, nothing, list] = await Promise.all([
      standIn("title-number"),
      standIn("author-text"),
      standIn("author-nulls"),
      standIn("null"),
      standIn("list"),
    ]);
    expect([titleNumber.status, titleNumber.body.data]).toEqual([
      200,
      {
        doi: "10.5555/stand-in.title-number",
        title: null,
        authors: [{ name: "Ada Lovelace", orcid: null }],
        summary: null,
        keywords: null,
        year: 2020,
      },
    ]);
    expect([authorText.status, authorText.body.data]).toEqual([
      200,
      {
        doi: "10.5555/stand-in.author-text",
        title: "One author given as text",
        authors: [],
        summary: null,
        keywords: "hydrology",
        year: null,
      },
    ]);
    expect([authorNulls.status, authorNulls.body.data]).toEqual([
      200,
      {
        doi: "10.5555/stand-in.author-nulls",
        title: "Nulls among the authors",
        authors: [
          { name: "Grace Hopper", orcid: null },
          { name: "Only", orcid: null },
        ],
        summary: null,
        keywords: null,
        year: 2019,
      },
    ]);
    expect([nothing, list].map((c) => [c.status, c.body.message])).toEqual([
      [502, UNAVAILABLE],
      [502, UNAVAILABLE],
    ]);
  });

  it("stops reading a record past 1 MB, and gives up on one that drips or on redirects that dawdle, within the one deadline", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const marker = mark();
    // Each of slow-hops' redirects comes within the deadline, but not all three: one deadline for the exchange.
    expect(DOI_DEADLINE_MS).toBeGreaterThan(SLOW_HOP_MS);
    expect(DOI_DEADLINE_MS).toBeLessThan(3 * SLOW_HOP_MS);
    const [huge, drip, slowHops] = await Promise.all([
      prefill(token, `10.5555/stand-in.huge.${marker}`),
      prefill(token, `10.5555/stand-in.drip.${marker}`),
      prefill(token, "10.5555/stand-in.slow-hops"),
    ]);
    expect([huge, drip, slowHops].map((c) => [c.status, c.body.message])).toEqual([
      [502, UNAVAILABLE],
      [504, UNAVAILABLE],
      [504, UNAVAILABLE],
    ]);
    // The worker cancelled both bodies: the stand-in sees each connection closed while this test still
    // runs (a body only left unread would stay open until the test's request ends), the endless one
    // after little more than the limit (what the sockets' buffers held aside).
    let requests = await reached(marker);
    while (!requests.every((request) => request.closed)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      requests = await reached(marker);
    }
    const sent = Object.fromEntries(requests.map((request) => [request.path.includes("huge") ? "huge" : "drip", request.sent]));
    expect(sent.huge).toBeGreaterThan(1_000_000);
    expect(sent.huge).toBeLessThan(64 * 1024 * 1024);
    expect(sent.drip).toBeLessThan(10);
  });

  it("follows at most three redirects, and only to https (or the local stand-in's own origin)", async () => {
    const token = await createSession(await newMember("Filler"), Date.now());
    const marker = mark();
    const cases = await Promise.all(["to-http", "to-data", "loop"].map((name) => prefill(token, `10.5555/stand-in.${name}.${marker}`)));
    expect(cases.map((c) => [c.status, c.body.message])).toEqual(Array(3).fill([502, UNAVAILABLE]));
    // Each asked once at the resolver and never followed elsewhere; the loop asked again three times.
    const paths = (await reached(marker)).map((request) => request.path);
    expect(paths.filter((path) => path.includes("to-http"))).toEqual([`/doi/10.5555/stand-in.to-http.${marker}`]);
    expect(paths.filter((path) => path.includes("to-data"))).toEqual([`/doi/10.5555/stand-in.to-data.${marker}`]);
    expect(paths.filter((path) => path.includes("loop"))).toEqual(Array(4).fill(`/doi/10.5555/stand-in.loop.${marker}`));
    // Three hops are enough for a record.
    const threeHops = await prefill(token, "10.5555/stand-in.three-hops");
    expect([threeHops.status, threeHops.body.data?.title]).toEqual([
      200,
      "Groundwater recharge in semi-arid basins after managed aquifer recharge",
    ]);
  });

  it("asks plain http only of the configured resolver's own loopback origin, and only in a local build", () => {
    const resolver = "http://127.0.0.1:8799/doi";
    const asks = (url: string, localBuild: boolean) => mayAsk(new URL(url), resolver, localBuild);
    expect(asks("https://api.crossref.org/v1/works/10.5555/x/transform", false)).toBe(true);
    expect(asks("http://127.0.0.1:8799/records/x", true)).toBe(true);
    expect(asks("http://127.0.0.1:8799/records/x", false)).toBe(false);
    expect(asks("http://127.0.0.1:8800/records/x", true)).toBe(false);
    expect(asks("http://localhost:8799/records/x", true)).toBe(false);
    expect(asks("http://api.crossref.org/v1/works/10.5555/x", true)).toBe(false);
    expect(mayAsk(new URL("http://doi.example/x"), "http://doi.example", true)).toBe(false);
    for (const other of ["data:application/json,{}", "file:///etc/passwd", "ftp://127.0.0.1:8799/x", "ws://127.0.0.1:8799/doi/x"]) {
      expect(asks(other, true), other).toBe(false);
    }
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
