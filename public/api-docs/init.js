// Renders the API document with Swagger UI (swagger-ui-dist, placed beside this file by the build).
// A file of its own, not an inline script, so the page's policy can stay script-src 'self'.
window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true });
});
