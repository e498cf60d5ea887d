import { readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";
import type { Plugin } from "vite";

/**
 * The small modules pages run (docs/decisions/0046). Every file directly in app/enhance is one:
 * bundled on its own, whole (what it imports is inside it) and minified, and handed to the server
 * as text through `virtual:enhance`, which it writes into the page (a module costs no request).
 */
const DIR = join(import.meta.dirname, "../app/enhance");
const MODULE = "virtual:enhance";

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
      const names = readdirSync(DIR)
        .filter((file) => /^[a-z-]+\.ts$/.test(file))
        .map((file) => file.slice(0, -3));
      const modules: Record<string, string> = {};
      for (const name of names) {
        const file = join(DIR, `${name}.ts`);
        this.addWatchFile(file);
        const { output } = await build({
          input: file,
          platform: "browser",
          transform: { define },
          write: false,
          output: { format: "es", minify: true },
        });
        // Inside <script>: nothing in it may close the element or open a comment.
        modules[name] = output[0].code.replace(/<\/script/gi, "<\\/script").replace(/<!--/g, "<\\!--");
      }
      return `export default ${JSON.stringify(modules)};`;
    },
  };
}
