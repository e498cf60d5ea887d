// The spec's calls (section 7) through a client typed by openapi-typescript from /api/openapi.json.
// npm test generates the types and type-checks this file: a call the document does not describe, or
// a body it would refuse, does not compile.
import createClient from "openapi-fetch";
import type { paths } from "../../reports/api-types";

export async function specCalls(baseUrl: string, email: string, code: string) {
  const api = createClient<paths>({ baseUrl: `${baseUrl}/api` });
  await api.POST("/users/send-verification-code", { body: { email } });
  const registered = await api.POST("/users/register", {
    body: { email, code, pwd: "a long enough password", nick_name: "Typed", account_type: 1 },
  });
  const token: string | undefined = registered.data?.data?.access_token;
  const login = await api.POST("/users/login", { body: { email, pwd: "a long enough password" } });
  const headers = { Authorization: `Bearer ${token ?? login.data?.data?.access_token ?? ""}` };
  const info = await api.GET("/auth/info", { headers });
  const myId: number | undefined = info.data?.data?.user?.id;
  const feed = await api.GET("/contents", { headers, params: { query: { sdg: 6, sort: "likes", page: 1 } } });
  const found = await api.GET("/search", { headers, params: { query: { q: "water", tab: "members" } } });
  const hits: number | undefined = found.data?.data?.results?.length;
  const firstTitle: string | undefined = feed.data?.data?.items?.[0]?.title;
  await api.POST("/interests", { headers, body: { sdg: 6 } });
  const started = await api.POST("/conversations", { headers, body: { user_id: 1 } });
  const conversation = started.data?.data?.conversation?.id;
  if (conversation !== undefined) {
    await api.POST("/conversations/{id}/messages", {
      headers,
      params: { path: { id: conversation } },
      body: { body: "Hello from a typed client", client_id: "typed-client-0001" },
    });
  }
  await api.DELETE("/auth/logout", { headers });
  return { myId, firstTitle, hits };
}
