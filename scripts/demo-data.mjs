// The demo catalogue, as SQL statements (idempotent). Each capability adds its own demo rows here.
import { createHmac, pbkdf2Sync, randomBytes } from "node:crypto";

// Must match app/server/settings.ts (LOCAL_PEPPER) and app/server/accounts/passwords.ts.
const LOCAL_PEPPER = "local-development-pepper";
const ITERATIONS = 100_000;
export const DEMO_PASSWORD = "research-demo-2026";

export const DEMO_MEMBERS = [
  { email: "researcher@demo.test", type: 1, kind: "individual", nick: "Aiko Tanaka", organisation: null },
  { email: "investor@demo.test", type: 2, kind: "individual", nick: "Daniel Okafor", organisation: null },
  { email: "lab@demo.test", type: 1, kind: "facilitator", nick: "Clean Water Lab", organisation: "Clean Water Research Lab" },
  { email: "fund@demo.test", type: 2, kind: "facilitator", nick: "Green Future Fund", organisation: "Green Future Fund" },
];

const b64url = (buf) => buf.toString("base64url");

function hashPassword(password) {
  const peppered = createHmac("sha256", LOCAL_PEPPER).update(password.normalize("NFKC")).digest();
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(peppered, salt, ITERATIONS, 32, "sha256");
  return `$pbkdf2-sha256$i=${ITERATIONS}$${b64url(salt)}$${b64url(hash)}`;
}

const q = (value) => (value === null ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

export async function demoStatements() {
  const now = Date.now();
  return DEMO_MEMBERS.map(
    (m) =>
      `INSERT OR IGNORE INTO users (email, password_hash, account_type, kind, nick_name, organisation, language, created_at) VALUES (${q(m.email)}, ${q(hashPassword(DEMO_PASSWORD))}, ${m.type}, ${q(m.kind)}, ${q(m.nick)}, ${q(m.organisation)}, 'en', ${now})`,
  );
}
