// The one way server code reaches Cloudflare bindings (D1, R2, Durable Objects, limits, vars).
export { env } from "cloudflare:workers";
