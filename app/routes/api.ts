import { handleApi } from "~/api/router";
import { callerFrom } from "~/server/auth/caller";
import type { Route } from "./+types/api";

// /api/*: every method goes to the API router (GET through the loader, the rest through the action).
export const loader = ({ request, context }: Route.LoaderArgs) => handleApi({ ...callerFrom(request, context), request });
export const action = ({ request, context }: Route.ActionArgs) => handleApi({ ...callerFrom(request, context), request });
