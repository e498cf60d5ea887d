import { z } from "zod";

// Every variable and secret the worker reads, in one schema. docs/configuration.md lists the same
// names (a test holds the two together); the worker checks this before it serves anything.

export const DEPLOY_ENVIRONMENTS = ["local", "preview", "production"] as const;
export type DeployEnvironment = (typeof DEPLOY_ENVIRONMENTS)[number];

export interface SettingMeta {
  kind: "var" | "secret";
  /** Where it must be set: "deployed" = preview and production. */
  required:
    | "always"
    | "deployed"
    | "when MAIL_PROVIDER is http"
    | "when MEETING_PROVIDER is zoom"
    | "when ORCID_CLIENT_ID is set"
    | "when ORCID_CLIENT_SECRET is set"
    | "never";
  example: string;
  description: string;
}

/** Hostnames that only this machine reaches. */
export const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

const httpsUrl = z.url().refine((value) => {
  const url = new URL(value);
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
}, "must be an https URL (plain http only on a loopback address)");

// "Name <address>" or a bare address, as mail providers accept it.
const sender = z
  .string()
  .regex(
    /^(?:[^<>\r\n]{1,100} <[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)$/,
    "must be 'Name <address>' or an address",
  );

const pepperId = z.string().regex(/^[a-z0-9]{1,16}$/, "must be 1 to 16 lowercase letters or digits");

const pepper = z.string().min(32, "must be at least 32 characters (use `openssl rand -base64 48`)");

// "id:secret id:secret": retired peppers kept while members' hashes move to the current one.
const oldPeppers = z
  .string()
  .regex(/^\s*[a-z0-9]{1,16}:\S{32,}(\s+[a-z0-9]{1,16}:\S{32,})*\s*$/, "must be 'id:secret' pairs separated by spaces");

export const SETTINGS = {
  APP_ENV: {
    schema: z.enum(DEPLOY_ENVIRONMENTS),
    meta: {
      kind: "var",
      required: "always",
      example: "production",
      description: "Which deployment this is. Set by wrangler.toml per environment; must match the build (CLOUDFLARE_ENV).",
    },
  },
  MAIL_PROVIDER: {
    schema: z.enum(["outbox", "http"]),
    meta: {
      kind: "var",
      required: "always",
      example: "http",
      description: "`http` sends through a Resend-compatible HTTP API; `outbox` keeps mail in local D1 (local builds only).",
    },
  },
  MAIL_API_URL: {
    schema: httpsUrl,
    meta: {
      kind: "var",
      required: "when MAIL_PROVIDER is http",
      example: "https://mail-provider.example",
      description: "Base URL of the mail provider's HTTP API; mail is POSTed to `{MAIL_API_URL}/emails`.",
    },
  },
  MAIL_FROM: {
    schema: sender,
    meta: {
      kind: "var",
      required: "when MAIL_PROVIDER is http",
      example: "Research Commons <no-reply@research-commons.example>",
      description: "Sender of verification codes and notices; its domain must be verified with the provider.",
    },
  },
  MAIL_API_KEY: {
    schema: z.string().min(8, "must be at least 8 characters"),
    meta: {
      kind: "secret",
      required: "when MAIL_PROVIDER is http",
      example: "re_xxxxxxxxxxxxxxxx",
      description: "The mail provider's API key, sent as `Authorization: Bearer`.",
    },
  },
  PASSWORD_PEPPER: {
    schema: pepper,
    meta: {
      kind: "secret",
      required: "deployed",
      example: "output of `openssl rand -base64 48`",
      description: "Secret mixed into every password hash and verification code (HMAC). Local builds use a fixed development value.",
    },
  },
  PASSWORD_PEPPER_ID: {
    schema: pepperId,
    meta: {
      kind: "var",
      required: "never",
      example: "1",
      description: "Short name of the current pepper, stored in each new password hash (default `1`). Change it when rotating.",
    },
  },
  PASSWORD_OLD_PEPPERS: {
    schema: oldPeppers,
    meta: {
      kind: "secret",
      required: "never",
      example: "1:previous-pepper-value-at-least-32-chars",
      description: "Retired peppers as `id:secret` pairs, so members whose hash names one can still sign in (and are rehashed).",
    },
  },
  MEMBERSHIP_LABELS: {
    schema: z.enum(["standard", "sponsor"]),
    meta: {
      kind: "var",
      required: "never",
      example: "sponsor",
      description:
        "Which of the spec's two label sets names the membership levels: `standard` (Free, Regular, Premium; the default) or `sponsor` (Free, Supporter, Patron).",
    },
  },
  OPEN_RECORDS: {
    schema: z.enum(["off", "on"]),
    meta: {
      kind: "var",
      required: "never",
      example: "on",
      description:
        "Whether an item's owner may open its record to anonymous readers, search engines and harvesters (decision 0049): `off` (the default, the spec's members-only site; robots.txt disallows all) or `on`.",
    },
  },
  OAI_LIST_SIZE: {
    schema: z.string().regex(/^(?:[1-9]\d{0,2}|1000)$/, "must be a whole number from 1 to 1000"),
    meta: {
      kind: "var",
      required: "never",
      example: "100",
      description:
        "How many records one OAI-PMH list answer holds before its resumption token (decision 0049): from 1 to 1000, 100 by default.",
    },
  },
  MEETING_PROVIDER: {
    schema: z.enum(["jitsi", "zoom"]),
    meta: {
      kind: "var",
      required: "never",
      example: "zoom",
      description: "Where meetings are held: `jitsi` (the default, no account needed) or `zoom` (Server-to-Server OAuth app).",
    },
  },
  ZOOM_ACCOUNT_ID: {
    schema: z.string().min(1),
    meta: {
      kind: "secret",
      required: "when MEETING_PROVIDER is zoom",
      example: "from the Zoom app's credentials",
      description: "The Zoom account of the Server-to-Server OAuth app.",
    },
  },
  ZOOM_CLIENT_ID: {
    schema: z.string().min(1),
    meta: {
      kind: "secret",
      required: "when MEETING_PROVIDER is zoom",
      example: "from the Zoom app's credentials",
      description: "The app's client id.",
    },
  },
  ZOOM_CLIENT_SECRET: {
    schema: z.string().min(1),
    meta: {
      kind: "secret",
      required: "when MEETING_PROVIDER is zoom",
      example: "from the Zoom app's credentials",
      description: "The app's client secret, sent only to Zoom's token endpoint.",
    },
  },
  APPEAL_ADDRESS: {
    schema: z.email("must be an email address"),
    meta: {
      kind: "var",
      required: "deployed",
      example: "appeals@research-commons.example",
      description: "Where a suspended member can appeal: the suspension mail and the refused sign-in name it.",
    },
  },
  SITE_URL: {
    schema: httpsUrl.refine((value) => new URL(value).pathname === "/", "must be an origin, without a path"),
    meta: {
      kind: "var",
      required: "deployed",
      example: "https://research-commons.example",
      description:
        "Where members reach the site: the links of mail sent by background work (digests) start with it. Local builds use the address they are served on.",
    },
  },
  JITSI_URL: {
    schema: httpsUrl.refine((value) => new URL(value).pathname === "/", "must be an origin, without a path"),
    meta: {
      kind: "var",
      required: "never",
      example: "https://meet.jit.si",
      description:
        "The Jitsi Meet deployment meetings are held on (default `https://meet.jit.si`); the join page may frame this origin only.",
    },
  },
  ORCID_CLIENT_ID: {
    schema: z.string().regex(/^APP-[A-Z0-9]{16}$/, "must be an ORCID client id (APP- and 16 letters or digits)"),
    meta: {
      kind: "var",
      required: "when ORCID_CLIENT_SECRET is set",
      example: "APP-XXXXXXXXXXXXXXXX",
      description:
        "The ORCID member or public API client's id. With its secret, members link their ORCID iD and sign in with ORCID; without both, no ORCID button is shown.",
    },
  },
  ORCID_CLIENT_SECRET: {
    schema: z.string().min(16, "must be at least 16 characters"),
    meta: {
      kind: "secret",
      required: "when ORCID_CLIENT_ID is set",
      example: "from ORCID's developer tools",
      description: "The ORCID client's secret, sent only to ORCID's token endpoint.",
    },
  },
  ORCID_URL: {
    schema: httpsUrl,
    meta: {
      kind: "var",
      required: "never",
      example: "https://sandbox.orcid.org",
      description:
        "ORCID's sign-in and token endpoints' base (default `https://orcid.org`; `https://sandbox.orcid.org` for ORCID's sandbox).",
    },
  },
  ORCID_API_URL: {
    schema: httpsUrl,
    meta: {
      kind: "var",
      required: "never",
      example: "https://pub.sandbox.orcid.org/v3.0",
      description:
        "ORCID's public API, where a linked member's works are read (default `https://pub.orcid.org/v3.0`, or the sandbox's when ORCID_URL is the sandbox).",
    },
  },
  DOI_RESOLVER_URL: {
    schema: httpsUrl,
    meta: {
      kind: "var",
      required: "never",
      example: "https://doi.org",
      description:
        "The DOI resolver asked for a DOI's metadata by content negotiation when a member fills a form from a DOI (default `https://doi.org`).",
    },
  },
  ROR_API_URL: {
    schema: httpsUrl,
    meta: {
      kind: "var",
      required: "never",
      example: "https://api.ror.org/v2",
      description:
        "The Research Organization Registry's v2 API, where members find their organisation (default `https://api.ror.org/v2`; docs/decisions/0052).",
    },
  },
  SPEECH_TO_TEXT_MODEL: {
    schema: z.enum(["@cf/openai/whisper-large-v3-turbo"], "must be @cf/openai/whisper-large-v3-turbo"),
    meta: {
      kind: "var",
      required: "never",
      example: "@cf/openai/whisper-large-v3-turbo",
      description:
        'Automatic captions (decision 0043): a new video without captions is transcribed by this Workers AI model through the `AI` binding (`[ai] binding = "AI"` in wrangler.toml, which must then exist). Unset: no automatic captions.',
    },
  },
  TRANSLATION_MODEL: {
    schema: z.enum(["@cf/meta/m2m100-1.2b"], "must be @cf/meta/m2m100-1.2b"),
    meta: {
      kind: "var",
      required: "never",
      example: "@cf/meta/m2m100-1.2b",
      description:
        'Machine suggestions of an item\'s title and abstract in English, Japanese or Chinese (decision 0050), by this Workers AI model through the `AI` binding (`[ai] binding = "AI"` in wrangler.toml, which must then exist). Unset: owners write their translations themselves.',
    },
  },
} satisfies Record<string, { schema: z.ZodType; meta: SettingMeta }>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
