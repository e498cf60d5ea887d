declare module "virtual:enhance" {
  /** Each module of app/enhance by name: its code, bundled whole and minified (scripts/vite-enhance.ts). */
  const modules: Record<import("./lib/page-handle").EnhanceModule, string>;
  export default modules;
  /** Each part in app/enhance/on-demand by name: its code and the version its address carries. */
  export const onDemand: Record<string, { version: string; code: string }>;
}

/** Where a module fetches each part in app/enhance/on-demand (`/enhance/<name>.<version>.js`). */
declare const __ON_DEMAND__: Record<string, string>;
