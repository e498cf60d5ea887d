// A stand-in for ORCID and a DOI resolver, for runs that cannot reach them (`npm start`, the tests).
// It answers their published shapes on one loopback origin:
//   ORCID (OAuth 2.0 + OpenID Connect): GET/POST /oauth/authorize (a sign-in form instead of ORCID's
//   own), POST /oauth/token (authorization_code: access_token, name, orcid and an RS256 id_token
//   carrying the nonce; a code works once), GET /oauth/jwks, /.well-known/openid-configuration;
//   the public API: GET /v3.0/{orcid}/works (JSON).
//   A DOI resolver with content negotiation: GET /doi/{doi} with Accept
//   application/vnd.citationstyles.csl+json answers 303 to the record, as the real resolver does.
//   10.5555/stand-in.slow never answers in time and 10.5555/stand-in.fail answers 503, so the
//   resolver's failures can be shown; other unknown DOIs are 404. The answers a hostile or broken
//   resolver could give have DOIs too (STAND_IN_FAILURES below), and GET /stand-in/requests?marker=…
//   says which requests reached the stand-in (so a test can see where the worker went, and when it
//   stopped reading).
//   The Research Organization Registry's v2 API under /ror/v2 (fake-ror.mjs).
// Nothing here is in a deployed build: the scripts start it and point the worker's settings at it.
import { createServer } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { rorAnswer } from "./fake-ror.mjs";

export const FAKE_ORCID_CLIENT = { id: "APP-LOCALSTANDIN0001", secret: "local-orcid-stand-in-secret" };
/** The iD the sign-in form offers first (a valid check digit). */
export const FAKE_ORCID_DEFAULT = { orcid: "0000-0002-1825-0097", name: "Josiah Carberry" };

const CSL = "application/vnd.citationstyles.csl+json";

/** Records the resolver knows, as CSL-JSON (the shape registration agencies answer). */
export const FAKE_DOI_RECORDS = {
  "10.5555/rc.2024.001": {
    type: "article-journal",
    DOI: "10.5555/rc.2024.001",
    title: "Groundwater recharge in semi-arid basins after managed aquifer recharge",
    author: [
      {
        given: "Josiah",
        family: "Carberry",
        ORCID: "https://orcid.org/0000-0002-1825-0097",
        "authenticated-orcid": true,
        sequence: "first",
      },
      { given: "Mariam", family: "Haddad", sequence: "additional" },
    ],
    abstract: "<jats:p>We measure how managed aquifer recharge changes groundwater levels in three semi-arid basins.</jats:p>",
    keyword: "groundwater, aquifer recharge, drylands",
    issued: { "date-parts": [[2024, 3, 14]] },
    "container-title": "Journal of Stand-in Hydrology",
    publisher: "Stand-in Press",
  },
  // Its second author's iD is the workers tests' own (the DOI tests link it to a member).
  "10.5555/rc.2023.042": {
    type: "article-journal",
    DOI: "10.5555/rc.2023.042",
    title: ["Solar desalination for island schools"],
    author: [
      { given: "Ana", family: "Silva" },
      { given: "Kenji", family: "Mori", ORCID: "https://orcid.org/0000-0003-1415-9269", "authenticated-orcid": true },
    ],
    keyword: ["desalination", "schools"],
    published: { "date-parts": [[2023, 6]] },
  },
  "10.5555/rc.2021.017": {
    type: "article-journal",
    DOI: "10.5555/rc.2021.017",
    title: "都市の水安全保障と気候適応",
    author: [{ literal: "田中 愛子" }, { given: "Josiah", family: "Carberry", ORCID: "http://orcid.org/0000-0002-1825-0097" }],
    abstract: "都市の水供給を気候変動に適応させる方法を比較する。",
    issued: { "date-parts": [[2021]] },
  },
};

/**
 * Records of the wrong shape (a title that is a number, authors that are text or hold nulls, a record
 * that is null or a list): the worker keeps what has the shape it uses and drops the rest.
 */
export const ILL_SHAPED_RECORDS = {
  "10.5555/stand-in.title-number": {
    title: 5,
    author: [{ given: "Ada", family: "Lovelace" }],
    issued: { "date-parts": [[2020, 1]] },
  },
  "10.5555/stand-in.author-text": {
    title: "One author given as text",
    author: "Mallory",
    abstract: { jats: "not text" },
    keyword: [7, null],
    subject: ["hydrology", 3],
  },
  "10.5555/stand-in.author-nulls": {
    title: [null, "Nulls among the authors"],
    author: [null, 7, "Mallory", { given: "Grace", family: "Hopper", ORCID: 12 }, { given: "Only", family: 5 }],
    issued: { "date-parts": [[null]] },
    published: { "date-parts": [["2019"]] },
  },
  "10.5555/stand-in.null": null,
  "10.5555/stand-in.list": [{ title: "a record inside a list" }],
};
const RECORDS = { ...FAKE_DOI_RECORDS, ...ILL_SHAPED_RECORDS };

/**
 * What else a resolver can answer, by the name after "10.5555/stand-in." (a further ".tail" is
 * allowed and ignored, so a test can mark its own requests): `huge` a record that never ends
 * (streamed as fast as it is read, never held whole), `drip` one that comes a byte a second,
 * `to-http` a redirect to plain http on another origin (this server under another name), `to-data`
 * one to a data: URL, `loop` a redirect to itself, `three-hops` three redirects before a record,
 * `slow-hops` the same three each SLOW_HOP_MS late.
 */
export const STAND_IN_FAILURES = ["huge", "drip", "to-http", "to-data", "loop", "three-hops", "slow-hops"];

/** The works every signed-in iD has on its record (the public API's summaries): two with a DOI, one without. */
function worksOf(orcid) {
  const summary = (putCode, title, year, doi) => ({
    "put-code": putCode,
    path: `/${orcid}/work/${putCode}`,
    type: "journal-article",
    title: { title: { value: title }, subtitle: null, "translated-title": null },
    "publication-date": year ? { year: { value: String(year) }, month: null, day: null } : null,
    "external-ids": {
      "external-id": doi
        ? [
            {
              "external-id-type": "doi",
              "external-id-value": doi,
              "external-id-normalized": { value: doi },
              "external-id-relationship": "self",
            },
          ]
        : [],
    },
  });
  const works = [
    summary(1001, FAKE_DOI_RECORDS["10.5555/rc.2024.001"].title, 2024, "10.5555/rc.2024.001"),
    summary(1002, FAKE_DOI_RECORDS["10.5555/rc.2021.017"].title, 2021, "10.5555/rc.2021.017"),
    summary(1003, "Field notes on coastal mangrove restoration", 2019, null),
  ];
  return {
    path: `/${orcid}/works`,
    group: works.map((work) => ({ "external-ids": work["external-ids"], "work-summary": [work] })),
  };
}

const readBody = (req) =>
  new Promise((resolve) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
  });

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeOrcid({ port = 0, slowMs = 30_000, log = false } = {}) {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "stand-in", use: "sig", alg: "RS256" };
  /** code -> what it was issued for; deleted when spent. */
  const codes = new Map();
  let base = "";
  /** The last requests (path and query as received), with how much of a streamed answer was sent and whether its connection closed. */
  const seen = [];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const send = (status, body, type = "application/json", headers = {}) => {
      res.writeHead(status, { "Content-Type": type, ...headers });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (log) console.log(`[fake orcid] ${req.method} ${url.pathname}`);

    if (url.pathname === "/stand-in/requests") {
      const marker = url.searchParams.get("marker") ?? "";
      return send(
        200,
        seen.filter((entry) => marker && entry.path.includes(marker)),
      );
    }
    const entry = { path: req.url ?? "/", sent: 0, closed: false };
    seen.push(entry);
    if (seen.length > 1000) seen.shift();
    res.on("close", () => {
      entry.closed = true;
    });

    if (url.pathname === "/.well-known/openid-configuration") {
      return send(200, {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        jwks_uri: `${base}/oauth/jwks`,
        scopes_supported: ["openid"],
        response_types_supported: ["code"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (url.pathname === "/oauth/jwks") return send(200, { keys: [jwk] });

    // The registry of organisations, from its data's slice (fake-ror.mjs).
    const ror = rorAnswer(url);
    if (ror) return ror.slow ? later(res, slowMs, () => send(200, { number_of_results: 0, items: [] })) : send(ror.status, ror.body);

    if (url.pathname === "/oauth/authorize") {
      const query = req.method === "POST" ? new URLSearchParams(await readBody(req)) : url.searchParams;
      const clientId = query.get("client_id");
      const redirectUri = query.get("redirect_uri") ?? "";
      if (clientId !== FAKE_ORCID_CLIENT.id || query.get("response_type") !== "code" || !redirectUri)
        return send(400, { error: "invalid_request", error_description: "client_id, response_type=code and redirect_uri are required" });
      if (req.method === "GET") {
        const hidden = ["client_id", "response_type", "scope", "redirect_uri", "state", "nonce"]
          .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query.get(name) ?? "")}">`)
          .join("");
        return send(
          200,
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ORCID stand-in: sign in</title></head><body>
<main><h1>Sign in to ORCID (local stand-in)</h1>
<p>The real ORCID asks for your ORCID password here. This stand-in signs you in as the iD you type.</p>
<form method="post" action="/oauth/authorize">${hidden}
<p><label>ORCID iD <input name="orcid" value="${FAKE_ORCID_DEFAULT.orcid}"></label></p>
<p><label>Name <input name="name" value="${FAKE_ORCID_DEFAULT.name}"></label></p>
<p><button name="decision" value="authorize">Authorize access</button> <button name="decision" value="deny">Deny access</button></p>
</form></main></body></html>`,
          "text/html; charset=utf-8",
        );
      }
      const target = new URL(redirectUri);
      const state = query.get("state");
      if (query.get("decision") === "deny") {
        target.searchParams.set("error", "access_denied");
        target.searchParams.set("error_description", "User denied access");
      } else {
        const orcid = query.get("orcid") ?? "";
        if (!/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid)) return send(400, { error: "invalid_request", error_description: "orcid" });
        const code = crypto.randomUUID().replaceAll("-", "").slice(0, 6);
        codes.set(code, { orcid, name: query.get("name") ?? "", redirectUri, nonce: query.get("nonce"), clientId });
        target.searchParams.set("code", code);
      }
      if (state) target.searchParams.set("state", state);
      return send(302, "", "text/plain", { Location: target.href });
    }

    if (url.pathname === "/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      if (form.get("client_id") !== FAKE_ORCID_CLIENT.id || form.get("client_secret") !== FAKE_ORCID_CLIENT.secret)
        return send(401, { error: "invalid_client", error_description: "Client not found" });
      if (form.get("grant_type") !== "authorization_code") return send(400, { error: "unsupported_grant_type" });
      const code = form.get("code") ?? "";
      const issued = codes.get(code);
      // A code is spent by its first exchange, as ORCID's are.
      codes.delete(code);
      if (!issued || issued.redirectUri !== form.get("redirect_uri"))
        return send(400, { error: "invalid_grant", error_description: `Invalid authorization code: ${code}` });
      const [given, ...family] = issued.name.split(" ");
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({
        at_hash: "stand-in",
        amr: "pwd",
        auth_time: now,
        given_name: given,
        family_name: family.join(" "),
        ...(issued.nonce ? { nonce: issued.nonce } : {}),
      })
        .setProtectedHeader({ alg: "RS256", kid: "stand-in" })
        .setIssuer(base)
        .setAudience(issued.clientId)
        .setSubject(issued.orcid)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .setJti(crypto.randomUUID())
        .sign(privateKey);
      return send(200, {
        access_token: crypto.randomUUID(),
        token_type: "bearer",
        refresh_token: crypto.randomUUID(),
        expires_in: 631138518,
        scope: "openid",
        name: issued.name,
        orcid: issued.orcid,
        id_token: idToken,
      });
    }

    const works = /^\/v3\.0\/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\/works$/.exec(url.pathname);
    if (works && req.method === "GET") return send(200, worksOf(works[1]));

    const doi = /^\/doi\/(.+)$/.exec(url.pathname);
    if (doi && req.method === "GET") {
      const name = decodeURIComponent(doi[1]).toLowerCase();
      if (name === "10.5555/stand-in.slow") return later(res, slowMs, () => send(504, "too late", "text/plain"));
      if (name === "10.5555/stand-in.fail") return send(503, "Service Unavailable", "text/plain");
      const failure = /^10\.5555\/stand-in\.([a-z-]+)(?:\.[\w-]+)?$/.exec(name)?.[1];
      if (STAND_IN_FAILURES.includes(failure)) return answerFailure(failure, name, req, res, entry, send);
      if (!Object.hasOwn(RECORDS, name)) return send(404, "DOI Not Found", "text/plain");
      if (!(req.headers.accept ?? "").includes(CSL)) return send(302, "", "text/plain", { Location: `https://example.org/${name}` });
      return send(303, "", "text/plain", { Location: `${base}/records/${encodeURIComponent(name)}` });
    }
    // The hops of `three-hops` and `slow-hops`: /hop/2, /hop/1, then a record (each slow-hop after SLOW_HOP_MS).
    const hop = /^\/(slow-)?hop\/(\d)$/.exec(url.pathname);
    if (hop && req.method === "GET") {
      const left = Number(hop[2]);
      const next = left > 1 ? `/${hop[1] ?? ""}hop/${left - 1}` : `/records/${encodeURIComponent("10.5555/rc.2024.001")}`;
      return later(res, hop[1] ? SLOW_HOP_MS : 0, () => send(302, "", "text/plain", { Location: `${base}${next}` }));
    }
    const record = /^\/records\/(.+)$/.exec(url.pathname);
    if (record && req.method === "GET") {
      const name = decodeURIComponent(record[1]);
      return Object.hasOwn(RECORDS, name) ? send(200, RECORDS[name], CSL) : send(404, "Resource not found.", "text/plain");
    }
    send(404, { error: "not_found" });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      base = `http://127.0.0.1:${server.address().port}`;
      resolve({ server, url: base, vars: fakeOrcidVars(base) });
    });
  });
}

/** How long each redirect of `slow-hops` takes: each is in time, the three together are not. */
export const SLOW_HOP_MS = 2_000;

/** Answers after `ms`, unless the connection closes first. */
function later(res, ms, answer) {
  const timer = setTimeout(answer, ms);
  res.on("close", () => clearTimeout(timer));
}

/** One of STAND_IN_FAILURES' answers to GET /doi/{name}. */
function answerFailure(failure, name, req, res, entry, send) {
  const base = `http://127.0.0.1:${req.socket.localPort}`;
  if (failure === "to-http") {
    // This same server under another name: a worker that followed would find a good record there.
    const target = `http://localhost:${req.socket.localPort}/records/${encodeURIComponent("10.5555/rc.2024.001")}`;
    return send(302, "", "text/plain", { Location: `${target}?from=${encodeURIComponent(name)}` });
  }
  if (failure === "to-data") {
    return send(302, "", "text/plain", { Location: `data:${CSL},${encodeURIComponent('{"title":"Smuggled in"}')}` });
  }
  if (failure === "loop") return send(302, "", "text/plain", { Location: `${base}${req.url}` });
  if (failure === "three-hops") return send(302, "", "text/plain", { Location: `${base}/hop/2` });
  if (failure === "slow-hops") return later(res, SLOW_HOP_MS, () => send(302, "", "text/plain", { Location: `${base}/slow-hop/2` }));
  res.writeHead(200, { "Content-Type": CSL });
  res.write('{"title":"');
  if (failure === "drip") {
    const timer = setInterval(() => {
      entry.sent += 1;
      res.write("a");
    }, 1000);
    res.on("close", () => clearInterval(timer));
    return;
  }
  // huge: 64 KiB at a time, as fast as the reader takes them (write() says when to wait for "drain"),
  // until the connection closes: never more than a few chunks in memory.
  const chunk = Buffer.alloc(64 * 1024, "a");
  const more = () => {
    while (!res.destroyed) {
      entry.sent += chunk.byteLength;
      if (!res.write(chunk)) return;
    }
  };
  res.on("drain", more);
  more();
}

/** The worker's settings that point it at a stand-in on `base`. */
export function fakeOrcidVars(base) {
  return {
    ORCID_CLIENT_ID: FAKE_ORCID_CLIENT.id,
    ORCID_CLIENT_SECRET: FAKE_ORCID_CLIENT.secret,
    ORCID_URL: base,
    ORCID_API_URL: `${base}/v3.0`,
    DOI_RESOLVER_URL: `${base}/doi`,
    ROR_API_URL: `${base}/ror/v2`,
  };
}
