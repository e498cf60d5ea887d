declare module "virtual:enhance" {
  /** Each module of app/enhance by name: its code, bundled whole and minified (scripts/vite-enhance.ts). */
  const modules: Record<import("./lib/page-handle").EnhanceModule, string>;
  export default modules;
}
