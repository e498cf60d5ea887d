import { readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";
import type { Plugin } from "vite";

/**
 * The small modules pages that do not hydrate run (docs/decisions/0046). Every file directly in
 * app/enhance is one: bundled on its own, whole (what it imports is inside it, so a page never waits
 * on a second request), minified, and written beside the browser build's files with a hashed name.
 * The server reads those names from `virtual:enhance`; the browser build runs before the server's.
 * In a dev server or a test the names are the sources' own paths.
 */
const DIR = join(import.meta.dirname, "../app/enhance");
const MODULE = "virtual:enhance";

export function enhanceModules(): Plugin {
  const names = readdirSync(DIR)
    .filter((file) => /^[a-z-]+\.ts$/.test(file))
    .map((file) => file.slice(0, -3));
  const built = new Map<string, string>();
  return {
    name: "enhance-modules",
    async generateBundle() {
      if (this.environment.name !== "client") return;
      const define = Object.fromEntries(
        Object.entries(this.environment.config.define ?? {}).map(([key, value]) => [
          key,
          typeof value === "string" ? value : JSON.stringify(value),
        ]),
      );
      for (const name of names) {
        const { output } = await build({
          input: join(DIR, `${name}.ts`),
          platform: "browser",
          transform: { define },
          write: false,
          output: { format: "es", minify: true },
        });
        const ref = this.emitFile({ type: "asset", name: `enhance-${name}.js`, source: output[0].code });
        built.set(name, `/${this.getFileName(ref)}`);
      }
    },
    resolveId: (id) => (id === MODULE ? `\0${MODULE}` : null),
    load(id) {
      if (id !== `\0${MODULE}`) return null;
      const building = this.environment.mode === "build";
      const missing = names.filter((name) => building && !built.has(name));
      if (missing.length) throw new Error(`${MODULE}: the browser build made no ${missing.join(", ")}`);
      const files = Object.fromEntries(names.map((name) => [name, building ? built.get(name) : `/app/enhance/${name}.ts`]));
      return `export default ${JSON.stringify(files)};`;
    },
  };
}
