// /api/docs: the API document, readable, through a maintained viewer (Swagger UI) served from this
// origin. Its policy is stricter than the pages': scripts only from this origin, no inline code.
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Research Commons API</title>
<link rel="stylesheet" href="/api-docs/swagger-ui.css">
</head>
<body>
<noscript><p>This reference needs JavaScript. The API document itself is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p></noscript>
<div id="reference"></div>
<script src="/api-docs/swagger-ui-bundle.js"></script>
<script src="/api-docs/init.js"></script>
</body>
</html>`;

export const referencePage = () =>
  new Response(PAGE, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": POLICY, "Cache-Control": "public, max-age=300" },
  });
