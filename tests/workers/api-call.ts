import { handleApi } from "~/api/router";
import { testCaller } from "./helpers";

/** One API call as a member (bearer token), with an optional raw body; background work settled. */
export async function apiCall(token: string, method: string, path: string, raw?: { body: BodyInit; type: string }) {
  const { caller, settle } = testCaller();
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(raw ? { "Content-Type": raw.type } : {}) };
  const response = await handleApi({
    ...caller,
    request: new Request(`https://app.test/api${path}`, { method, headers, body: raw?.body }),
  });
  await settle();
  return response;
}

/** The envelope's data and field errors. */
export const apiJson = async (response: Response) =>
  (await response.json()) as { data: Record<string, unknown> | null; errors?: Record<string, string[]> };
