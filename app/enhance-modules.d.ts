declare module "virtual:enhance" {
  /** Each module of app/enhance by name, at its hashed address (scripts/vite-enhance.ts). */
  const files: Record<import("./lib/page-handle").EnhanceModule, string>;
  export default files;
}
