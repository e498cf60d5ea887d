import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";
import type { Plugin } from "vite";

/**
 * The small modules pages run (docs/decisions/0046). Every file directly in app/enhance is one:
 * bundled on its own, whole (what it imports is inside it) and minified, and handed to the server
 * as text through `virtual:enhance`, which it writes into the page (a module costs no request).
 * A file in app/enhance/on-demand is a part a module fetches when the member first needs it
 * (docs/decisions/0047): served by the worker at `/enhance/<name>.<version>.js`, cached for good,
 * and named to the modules by `__ON_DEMAND__`.
 */
const DIR = join(import.meta.dirname, "../app/enhance");
const ON_DEMAND = join(DIR, "on-demand");
const MODULE = "virtual:enhance";

const namesIn = (dir: string) =>
  readdirSync(dir)
    .filter((file) => /^[a-z-]+\.ts$/.test(file))
    .map((file) => file.slice(0, -3));

export function enhanceModules(): Plugin {
  return {
    name: "enhance-modules",
    resolveId: (id) => (id === MODULE ? `\0${MODULE}` : null),
    async load(id) {
      if (id !== `\0${MODULE}`) return null;
      const define = Object.fromEntries(
        Object.entries(this.environment.config.define ?? {}).map(([key, value]) => [
          key,
          typeof value === "string" ? value : JSON.stringify(value),
        ]),
      );
      const bundle = async (file: string, names: Record<string, string>) => {
        this.addWatchFile(file);
        const { output } = await build({
          input: file,
          platform: "browser",
          // Each part's address written where it is named, so a module carries only the parts it fetches.
          plugins: [
            {
              name: "on-demand-paths",
              transform: (code) => code.replace(/__ON_DEMAND__\["([a-z-]+)"\]/g, (_, name: string) => JSON.stringify(names[name] ?? "")),
            },
          ],
          transform: { define: { ...define, __ON_DEMAND__: JSON.stringify(names) } },
          external: (source) => Object.values(names).includes(source),
          write: false,
          output: { format: "es", minify: true },
        });
        return output[0].code;
      };
      const onDemand: Record<string, { version: string; code: string }> = {};
      for (const name of namesIn(ON_DEMAND)) {
        const code = await bundle(join(ON_DEMAND, `${name}.ts`), {});
        onDemand[name] = { version: createHash("sha256").update(code).digest("hex").slice(0, 12), code };
      }
      const paths = Object.fromEntries(Object.entries(onDemand).map(([name, { version }]) => [name, `/enhance/${name}.${version}.js`]));
      const modules: Record<string, string> = {};
      for (const name of namesIn(DIR)) {
        const code = await bundle(join(DIR, `${name}.ts`), paths);
        // Inside <script>: nothing in it may close the element or open a comment.
        modules[name] = code.replace(/<\/script/gi, "<\\/script").replace(/<!--/g, "<\\!--");
      }
      return `export default ${JSON.stringify(modules)};\nexport const onDemand = ${JSON.stringify(onDemand)};`;
    },
  };
}
