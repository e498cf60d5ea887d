import { describe, expect, it } from "vitest";
import { configProblems, servingProblems } from "~/.server/config/config";
import { parseConfig } from "~/.server/config/parse";

const PEPPER = "p".repeat(40);
/** The databases every deployment binds (decision 0045): the worker refuses to start without them. */
const DATABASES = { DB: {}, STATS_DB: {}, TEXT_1: {}, TEXT_2: {} };
const PRODUCTION = {
  ...DATABASES,
  APP_ENV: "production",
  MAIL_PROVIDER: "http",
  MAIL_API_URL: "https://mail.example",
  MAIL_FROM: "Research Commons <no-reply@research-commons.example>",
  APPEAL_ADDRESS: "appeals@research-commons.example",
  SITE_URL: "https://research-commons.example",
  MAIL_API_KEY: "key-1234567890",
  PASSWORD_PEPPER: PEPPER,
};
const deployed = (raw: Record<string, unknown>) => parseConfig(raw, false);
const names = (result: ReturnType<typeof parseConfig>) => (result.ok ? [] : result.problems.map((p) => p.name).sort());

describe("configuration", () => {
  it("lets a local build run with no secrets, on the development pepper", () => {
    const result = parseConfig({ ...DATABASES, APP_ENV: "local", MAIL_PROVIDER: "outbox" }, true);
    expect(result.ok && result.config.pepper.id).toBe("1");
    expect(configProblems()).toEqual([]);
  });

  it("turns ORCID on with a client id and secret, names the missing half, and leaves it off without either", () => {
    const on = deployed({
      ...PRODUCTION,
      ORCID_CLIENT_ID: "APP-0123456789ABCDEF",
      ORCID_CLIENT_SECRET: "s".repeat(36),
      ORCID_URL: "https://sandbox.orcid.org",
    });
    expect(on.ok && on.config.orcid).toEqual({
      clientId: "APP-0123456789ABCDEF",
      clientSecret: "s".repeat(36),
      url: "https://sandbox.orcid.org",
      apiUrl: "https://pub.sandbox.orcid.org/v3.0",
    });
    const off = deployed(PRODUCTION);
    expect(off.ok && off.config.orcid).toBeNull();
    expect(off.ok && off.config.doiResolverUrl).toBe("https://doi.org");
    expect(names(deployed({ ...PRODUCTION, ORCID_CLIENT_ID: "APP-0123456789ABCDEF" }))).toEqual(["ORCID_CLIENT_SECRET"]);
    expect(names(deployed({ ...PRODUCTION, ORCID_CLIENT_SECRET: "s".repeat(36) }))).toEqual(["ORCID_CLIENT_ID"]);
    expect(names(deployed({ ...PRODUCTION, ORCID_CLIENT_ID: "my-app", ORCID_CLIENT_SECRET: "s".repeat(36) }))).toEqual(["ORCID_CLIENT_ID"]);
    expect(names(deployed({ ...PRODUCTION, DOI_RESOLVER_URL: "http://doi.example" }))).toEqual(["DOI_RESOLVER_URL"]);
  });

  it("accepts a complete production configuration", () => {
    const result = deployed(PRODUCTION);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.config.mail).toEqual({
        provider: "http",
        apiUrl: "https://mail.example",
        apiKey: "key-1234567890",
        from: PRODUCTION.MAIL_FROM,
      });
    if (result.ok) expect(result.config.appealAddress).toBe("appeals@research-commons.example");
  });

  it("names exactly what a deployed build is missing", () => {
    const { PASSWORD_PEPPER, MAIL_API_KEY, ...rest } = PRODUCTION;
    expect(names(deployed(rest))).toEqual(["MAIL_API_KEY", "PASSWORD_PEPPER"]);
    expect(names(deployed({ ...PRODUCTION, PASSWORD_PEPPER: "" }))).toEqual(["PASSWORD_PEPPER"]);
  });

  it("refuses local settings, the outbox and unknown or malformed values in a deployed build", () => {
    expect(names(deployed({ ...PRODUCTION, APP_ENV: "local" }))).toEqual(["APP_ENV"]);
    expect(names(deployed({ ...PRODUCTION, MAIL_PROVIDER: "outbox" }))).toEqual(["MAIL_PROVIDER"]);
    expect(names(deployed({ ...PRODUCTION, MAIL_PROVIDER: "smtp" }))).toEqual(["MAIL_PROVIDER"]);
    expect(names(deployed({ ...PRODUCTION, MAIL_API_URL: "http://mail.example" }))).toEqual(["MAIL_API_URL"]);
    expect(names(deployed({ ...PRODUCTION, MAIL_FROM: "nobody" }))).toEqual(["MAIL_FROM"]);
    // A suspension names where to appeal: deployed, it must be set, and be an address.
    const { APPEAL_ADDRESS: _appeal, ...noAppeal } = PRODUCTION;
    expect(names(deployed(noAppeal))).toEqual(["APPEAL_ADDRESS"]);
    expect(names(deployed({ ...PRODUCTION, APPEAL_ADDRESS: "the moderators" }))).toEqual(["APPEAL_ADDRESS"]);
    expect(names(deployed({ ...PRODUCTION, PASSWORD_PEPPER: "short" }))).toEqual(["PASSWORD_PEPPER"]);
    expect(names(deployed({ ...PRODUCTION, APP_ENV: "staging" }))).toEqual(["APP_ENV"]);
  });

  it("chooses the meeting provider: Jitsi by default, Zoom only with all three of its secrets", () => {
    const jitsi = deployed(PRODUCTION);
    expect(jitsi.ok && jitsi.config.meetings).toEqual({ provider: "jitsi", jitsiOrigin: "https://meet.jit.si", zoom: null });
    expect(names(deployed({ ...PRODUCTION, MEETING_PROVIDER: "zoom", ZOOM_ACCOUNT_ID: "a" }))).toEqual([
      "ZOOM_CLIENT_ID",
      "ZOOM_CLIENT_SECRET",
    ]);
    const zoom = deployed({ ...PRODUCTION, MEETING_PROVIDER: "zoom", ZOOM_ACCOUNT_ID: "a", ZOOM_CLIENT_ID: "b", ZOOM_CLIENT_SECRET: "c" });
    expect(zoom.ok && zoom.config.meetings).toEqual({
      provider: "zoom",
      jitsiOrigin: "https://meet.jit.si",
      zoom: { accountId: "a", clientId: "b", clientSecret: "c" },
    });
    expect(names(deployed({ ...PRODUCTION, JITSI_URL: "http://meet.example/room" }))).toEqual(["JITSI_URL"]);
  });

  it("keeps records members-only unless OPEN_RECORDS is on, and names a value it does not know", () => {
    const open = (value?: string) => deployed({ ...PRODUCTION, ...(value === undefined ? {} : { OPEN_RECORDS: value }) });
    expect([open(), open("off"), open("on")].map((result) => result.ok && result.config.openRecords)).toEqual([false, false, true]);
    expect(names(open("yes"))).toEqual(["OPEN_RECORDS"]);
  });

  it("refuses a local build told it is production (build with CLOUDFLARE_ENV instead)", () => {
    expect(names(parseConfig(PRODUCTION, true))).toEqual(["APP_ENV"]);
  });

  it("keeps retired peppers by id, and refuses one that reuses the current id", () => {
    const old = `1:${"o".repeat(40)}`;
    const result = deployed({ ...PRODUCTION, PASSWORD_PEPPER_ID: "2", PASSWORD_OLD_PEPPERS: old });
    expect(result.ok && [...result.config.pepper.byId.keys()].sort()).toEqual(["1", "2"]);
    expect(names(deployed({ ...PRODUCTION, PASSWORD_OLD_PEPPERS: old }))).toEqual(["PASSWORD_OLD_PEPPERS"]);
    expect(names(deployed({ ...PRODUCTION, PASSWORD_OLD_PEPPERS: "1:short" }))).toEqual(["PASSWORD_OLD_PEPPERS"]);
  });

  it("serves a local build on loopback addresses only", () => {
    expect(servingProblems(new Request("http://127.0.0.1:8787/login"))).toEqual([]);
    expect(servingProblems(new Request("http://localhost/login"))).toEqual([]);
    expect(servingProblems(new Request("https://research-commons.example/login")).map((p) => p.name)).toEqual(["CLOUDFLARE_ENV"]);
  });
});

describe("the databases", () => {
  it("are all required: the core, the statistics and text shards numbered from 1 without a gap, listed in order", () => {
    const { DB, STATS_DB, TEXT_1, ...rest } = PRODUCTION;
    expect(names(deployed(rest))).toEqual(["DB", "STATS_DB", "TEXT_1"]);
    expect(names(deployed({ ...rest, DB, STATS_DB, TEXT_3: {} }))).toEqual(["TEXT_1"]);
    const shards = deployed({
      ...PRODUCTION,
      TEXT_10: {},
      TEXT_3: {},
      TEXT_4: {},
      TEXT_5: {},
      TEXT_6: {},
      TEXT_7: {},
      TEXT_8: {},
      TEXT_9: {},
    });
    expect(shards.ok && shards.config.textShards).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(TEXT_1).toEqual({});
  });
});
