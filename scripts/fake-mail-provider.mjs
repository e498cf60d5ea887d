// A stand-in for the mail provider's HTTP API (Resend's published shape: POST /emails with a Bearer
// key and {from, to[], subject, text}, answering 200 {id}; an Idempotency-Key header seen before
// answers the first id and sends nothing; GET /emails/{id}), for runs that cannot
// reach the internet. It keeps what it receives in memory and prints it; GET /emails lists it all,
// newest first, so tests can read codes.
import { createServer } from "node:http";

export function startFakeMailProvider({ port = 0, apiKey, log = true } = {}) {
  const sent = [];
  // Idempotency-Key -> the id answered: a repeat answers it again and sends nothing.
  const seen = new Map();
  const server = createServer((req, res) => {
    const answer = (status, body) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`)
      return answer(401, { name: "validation_error", message: "API key is invalid" });
    if (req.method === "GET" && req.url === "/emails") return answer(200, { data: [...sent].reverse() });
    const one = /^\/emails\/([\w-]+)$/.exec(req.url ?? "");
    if (req.method === "GET" && one) {
      const mail = sent.find((m) => m.id === one[1]);
      return mail ? answer(200, { object: "email", ...mail }) : answer(404, { name: "not_found", message: "Email not found" });
    }
    if (req.method !== "POST" || req.url !== "/emails") return answer(404, { name: "not_found", message: "Not found" });
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      let mail;
      try {
        mail = JSON.parse(body);
      } catch {
        return answer(422, { name: "validation_error", message: "Invalid JSON" });
      }
      if (!mail.from || !Array.isArray(mail.to) || !mail.subject) {
        return answer(422, { name: "missing_required_field", message: "from, to and subject are required" });
      }
      const key = req.headers["idempotency-key"];
      if (key && seen.has(key)) return answer(200, { id: seen.get(key) });
      const id = crypto.randomUUID();
      if (key) seen.set(key, id);
      sent.push({
        id,
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        headers: mail.headers,
        created_at: new Date().toISOString(),
      });
      if (log) console.log(`[fake mail provider] to ${mail.to.join(", ")}: ${mail.subject}\n${mail.text}`);
      answer(200, { id });
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}`, sent }));
  });
}
