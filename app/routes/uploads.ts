import { data } from "react-router";
import { abortUpload, completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { translator } from "~/.server/i18n/translate";
import { Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { translateError } from "~/lib/form-errors";
import type { Route } from "./+types/uploads";

// The browser's resumable upload (cookie session, same origin):
//   POST /uploads {size} -> {id, part_size, parts}; GET /uploads/{id} -> status; DELETE /uploads/{id};
//   PUT /uploads/{id}/parts/{n} (raw bytes); POST /uploads/{id}/complete.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const status = params.id ? await uploadStatus(params.id, user.id) : null;
  return status ? Response.json(status) : Response.json({ error: "notify.requestFailed" }, { status: 404 });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireUser(request, context);
  try {
    if (!params.id && request.method === "POST") {
      // A body that is not JSON has no size: refused below like a missing one, never a 500.
      const { size } = (await request.json().catch(() => ({}))) as { size?: unknown };
      return Response.json(await startUpload(user.id, Number(size), Date.now()), { status: 201 });
    }
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      const aborted = await abortUpload(id, user.id);
      return aborted ? Response.json({ aborted }) : Response.json({ error: "notify.requestFailed" }, { status: 404 });
    }
    if (request.method === "PUT" && params.part) {
      const stored = await putPart(id, user.id, Number(params.part), await request.arrayBuffer());
      return stored ? Response.json(stored) : Response.json({ error: "notify.requestFailed" }, { status: 404 });
    }
    if (request.method === "POST" && new URL(request.url).pathname.endsWith("/complete")) {
      const result = await completeUpload(id, user.id);
      return result
        ? Response.json(result, { status: result.completed ? 200 : 409 })
        : Response.json({ error: "notify.requestFailed" }, { status: 404 });
    }
    throw data(null, { status: 405 });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    // The refusal's key, and its words in the member's language for the upload form's module to show.
    const message = translateError(translator(languageOf(request)), error.key);
    return Response.json({ error: error.key, message }, { status: error.status });
  }
}
