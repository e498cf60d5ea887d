import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The rules biome.json adds to the recommended set hold: Biome itself (not a reading of ours) reports
// an import circle, type-only edges included (issue 31), and an icon imported through lucide-react's
// index (issue 29). The files are written inside app/ for the run, where the project's config applies.

const folder = `app/lint-fixture-${process.pid}`;

function lint(files: Record<string, string>): string[] {
  mkdirSync(folder, { recursive: true });
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(`${folder}/${name}`, text);
    let output: string;
    try {
      output = execFileSync("node_modules/.bin/biome", ["lint", "--reporter=json", folder], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = (error as { stdout: string }).stdout; // exit 1: the diagnostics are on stdout all the same
    }
    const { diagnostics } = JSON.parse(output) as { diagnostics: { category: string; location: { path: string } }[] };
    return diagnostics.map((d) => `${d.category} ${d.location.path.replace(`${folder}/`, "")}`).sort();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("the lint rules of biome.json", () => {
  it("refuses an import circle, even one closed by a type-only import", () => {
    expect(
      lint({
        "a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
        "b.ts": 'import { helper } from "./c";\nimport type { A } from "./a";\nexport type B = { a?: A };\nexport const use = helper;\n',
        "c.ts": "export const helper = 1;\n",
      }),
    ).toEqual(["lint/suspicious/noImportCycles a.ts", "lint/suspicious/noImportCycles b.ts"]);
  });

  it("refuses icons imported through lucide-react's index, and takes them one file each", () => {
    expect(
      lint({
        "index.ts": 'import { Bell } from "lucide-react";\nexport { Bell };\n',
        "one.ts": 'import Bell from "lucide-react/icons/bell";\nexport { Bell };\n',
      }),
    ).toEqual(["lint/style/noRestrictedImports index.ts"]);
  });
});
