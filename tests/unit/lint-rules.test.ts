import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";

// The rules biome.json adds to the recommended set hold: Biome itself (not a reading of ours) reports
// an import circle, type-only edges included (issue 31), an import across the rooms' walls (issue
// 31, docs/decisions/0034-rooms.md), and an icon imported through lucide-react's index (issue 29).
// The files are written inside app/ for the run, where the project's config applies.

const fixture = `lint-fixture-${process.pid}`;

/** Each file's diagnostics, as "category path" (the path relative to app/ and without the fixture's name). */
function lint(files: Record<string, string>): string[] {
  const paths = Object.keys(files).map((name) => `app/${name.replace("FIXTURE", fixture)}`);
  try {
    for (const [at, path] of paths.entries()) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Object.values(files)[at] ?? "");
    }
    let output: string;
    try {
      output = execFileSync("node_modules/.bin/biome", ["lint", "--reporter=json", ...paths], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = (error as { stdout: string }).stdout; // exit 1: the diagnostics are on stdout all the same
    }
    const { diagnostics } = JSON.parse(output) as { diagnostics: { category: string; location: { path: string } }[] };
    return diagnostics.map((d) => `${d.category} ${d.location.path.replace("app/", "").replace(fixture, "FIXTURE")}`).sort();
  } finally {
    for (const path of paths)
      rmSync(path.includes(`${fixture}/`) ? path.slice(0, path.indexOf(`${fixture}/`) + fixture.length) : path, {
        recursive: true,
        force: true,
      });
  }
}

describe("the lint rules of biome.json", () => {
  it("refuses an import circle, even one closed by a type-only import", () => {
    expect(
      lint({
        "FIXTURE/a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
        "FIXTURE/b.ts":
          'import { helper } from "./c";\nimport type { A } from "./a";\nexport type B = { a?: A };\nexport const use = helper;\n',
        "FIXTURE/c.ts": "export const helper = 1;\n",
      }),
    ).toEqual(["lint/suspicious/noImportCycles FIXTURE/a.ts", "lint/suspicious/noImportCycles FIXTURE/b.ts"]);
  });

  it("refuses icons imported through lucide-react's index, and takes them one file each", () => {
    expect(
      lint({
        "FIXTURE/index.ts": 'import { Bell } from "lucide-react";\nexport { Bell };\n',
        "FIXTURE/one.ts": 'import Bell from "lucide-react/icons/bell";\nexport { Bell };\n',
        "components/FIXTURE.ts": 'import { Bell } from "lucide-react";\nexport { Bell };\n',
      }),
    ).toEqual(["lint/style/noRestrictedImports FIXTURE/index.ts", "lint/style/noRestrictedImports components/FIXTURE.ts"].sort());
  });

  it("keeps the rooms: each import across a wall is refused, each along the allowed direction is not", () => {
    const importing = (from: string) => `import * as other from "${from}";\nexport { other };\n`;
    expect(
      lint({
        "components/FIXTURE-server.ts": importing("~/.server/bindings"),
        "components/FIXTURE-route.ts": importing("~/routes/home"),
        "components/FIXTURE-root.ts": importing("~/root"),
        "components/FIXTURE-lib.ts": importing("~/lib/limits"),
        "lib/FIXTURE-component.ts": importing("~/components/avatar"),
        "lib/FIXTURE-server.ts": importing("~/.server/bindings"),
        ".server/FIXTURE-api.ts": importing("~/api/router"),
        ".server/FIXTURE-route.ts": importing("~/routes/home"),
        ".server/FIXTURE-lib.ts": importing("~/lib/limits"),
        ".server/FIXTURE-web.ts": importing("~/.server/web/auth/session"),
        ".server/web/FIXTURE-web.ts": importing("~/.server/web/auth/cookies"),
        ".server/web/FIXTURE-api.ts": importing("~/api/router"),
        ".server/web/FIXTURE-service.ts": importing("~/.server/social/social"),
        ".server/images/FIXTURE-domain.ts": importing("~/.server/content/sniff"),
        ".server/mail/FIXTURE-web.ts": importing("~/.server/web/auth/session"),
        ".server/security/FIXTURE-shared.ts": importing("~/.server/refused"),
        ".server/security/FIXTURE-lib.ts": importing("~/lib/limits"),
        "routes/FIXTURE-api.ts": importing("~/api/router"),
        "routes/FIXTURE-server.ts": importing("~/.server/social/social"),
        "routes/FIXTURE-bindings.ts": importing("~/.server/bindings"),
        "api/FIXTURE-route.ts": importing("~/routes/home"),
        "api/FIXTURE-bindings.ts": importing("~/.server/bindings"),
        "api/FIXTURE-server.ts": importing("~/.server/social/social"),
      }),
    ).toEqual(
      [
        "components/FIXTURE-server.ts",
        "components/FIXTURE-route.ts",
        "components/FIXTURE-root.ts",
        "lib/FIXTURE-component.ts",
        "lib/FIXTURE-server.ts",
        ".server/FIXTURE-api.ts",
        ".server/FIXTURE-route.ts",
        ".server/FIXTURE-web.ts",
        ".server/web/FIXTURE-api.ts",
        ".server/images/FIXTURE-domain.ts",
        ".server/mail/FIXTURE-web.ts",
        "routes/FIXTURE-api.ts",
        "routes/FIXTURE-bindings.ts",
        "api/FIXTURE-route.ts",
        "api/FIXTURE-bindings.ts",
      ]
        .map((path) => `lint/style/noRestrictedImports ${path}`)
        .sort(),
    );
  });
});
