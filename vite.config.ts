import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { deployTarget } from "./app/lib/deploy-target";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter()],
  // A literal, so that local-only code is dropped from deployed builds (app/build-flags.d.ts).
  define: { __LOCAL_BUILD__: JSON.stringify(deployTarget() === "local") },
  resolve: { tsconfigPaths: true },
  server: { host: "127.0.0.1" },
  preview: { host: "127.0.0.1" },
});
