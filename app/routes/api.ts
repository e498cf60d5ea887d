import { handleApi } from "~/api/router";
import { callerFrom } from "~/server/auth/caller";
import { requestContext } from "~/server/context";
import { failedRequest } from "~/server/observability/failures";
import type { Route } from "./+types/api";

// /api/*: every method goes to the API router (GET through the loader, the rest through the action).
// A handler that throws answers 500 in the API's envelope with the request id, never plain text.
async function answer({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  try {
    return await handleApi({ ...callerFrom(request, context), request });
  } catch (error) {
    return failedRequest(request, context.get(requestContext).requestId, error);
  }
}

export const loader = answer;
export const action = answer;
