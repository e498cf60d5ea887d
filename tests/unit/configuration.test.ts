import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { experimental_readRawConfig } from "wrangler";
import { parseConfig } from "~/.server/config/parse";
import { SETTING_NAMES, SETTINGS } from "~/.server/config/schema";

// docs/configuration.md and wrangler.toml, held to the one configuration schema.

const rows = readFileSync("docs/configuration.md", "utf8")
  .split("\n")
  .filter((line) => line.startsWith("| `"))
  .map((line) => line.split("|").map((cell) => cell.trim()));
const documented = new Map(rows.map(([, name, kind, required]) => [name?.replaceAll("`", ""), { kind, required }]));
const { rawConfig } = experimental_readRawConfig({ config: "wrangler.toml" });
const production = rawConfig.env?.production;
const secretNames = SETTING_NAMES.filter((name) => SETTINGS[name].meta.kind === "secret");

describe("docs/configuration.md", () => {
  it("lists every variable and secret of the schema, and nothing else", () => {
    expect([...documented.keys()].sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("gives each the kind and requirement the schema has", () => {
    for (const name of SETTING_NAMES) {
      expect(documented.get(name), name).toEqual({ kind: SETTINGS[name].meta.kind, required: SETTINGS[name].meta.required });
    }
  });
});

describe("wrangler.toml", () => {
  /** An environment's variables with its D1 bindings, as the worker sees them. */
  const bound = (block: { vars?: object; d1_databases?: Array<{ binding: string }> } | undefined) => ({
    ...block?.vars,
    ...Object.fromEntries((block?.d1_databases ?? []).map((db) => [db.binding, {}])),
  });
  const environments = {
    local: { vars: rawConfig.vars ?? {}, bindings: bound(rawConfig), localBuild: true },
    production: { vars: production?.vars ?? {}, bindings: bound(production), localBuild: false },
    preview: { vars: production?.previews?.vars ?? {}, bindings: bound(production?.previews), localBuild: false },
  };

  it("sets only variables the schema knows, never a secret", () => {
    for (const [env, { vars }] of Object.entries(environments)) {
      for (const name of Object.keys(vars)) {
        expect(SETTING_NAMES as string[], `${env}: ${name}`).toContain(name);
        expect(secretNames as string[], `${env}: ${name} is a secret`).not.toContain(name);
      }
    }
  });

  it("names the secrets production requires, and each environment passes the check once they are set", () => {
    // "when X is Y" applies when production's variables say so (Zoom's secrets do not, on Jitsi).
    const applies = (required: string) => {
      const [, name = "", value] = /^when (\w+) is (\w+)$/.exec(required) ?? [];
      return value ? (production?.vars as Record<string, string> | undefined)?.[name] === value : required !== "never";
    };
    const required = secretNames.filter((name) => applies(SETTINGS[name].meta.required));
    expect([...(production?.secrets?.required ?? [])].sort()).toEqual([...required].sort());
    const secrets = { PASSWORD_PEPPER: "s".repeat(40), MAIL_API_KEY: "key-1234567890" };
    for (const [env, { bindings, localBuild }] of Object.entries(environments)) {
      const result = parseConfig({ ...bindings, ...(localBuild ? {} : secrets) }, localBuild);
      expect(result.ok ? [] : result.problems, env).toEqual([]);
      if (result.ok) expect(result.config.appEnv).toBe(env);
    }
  });

  it("gives production and previews their own databases and bucket, apart from each other", () => {
    const db = (block: { d1_databases?: Array<{ database_name: string }> } | undefined) =>
      block?.d1_databases?.map((d) => d.database_name).join(",");
    const bucket = (block: { r2_buckets?: Array<{ bucket_name: string }> } | undefined) => block?.r2_buckets?.[0]?.bucket_name;
    const names = [db(rawConfig), db(production), db(production?.previews)];
    expect(new Set(names).size).toBe(3);
    expect(new Set([bucket(rawConfig), bucket(production), bucket(production?.previews)]).size).toBe(3);
  });
});
