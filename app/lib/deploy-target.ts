// Read by the build configs (vite, React Router, routes) in Node: which deployment a build is for.
// CLOUDFLARE_ENV selects the wrangler environment (the Cloudflare Vite plugin reads it too). Previews
// are Worker Previews of the production build, so "production" is the only deployed build.
export type DeployTarget = "local" | "production";

export function deployTarget(): DeployTarget {
  const target = process.env.CLOUDFLARE_ENV;
  if (!target) return "local";
  if (target === "production") return target;
  throw new Error(`CLOUDFLARE_ENV must be unset (a local build) or production, not "${target}"`);
}
