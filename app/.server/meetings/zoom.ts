import type { MeetingProvider, ProviderMeeting } from "./provider-interface";

// Zoom through Server-to-Server OAuth (docs/decisions/0022-meetings.md): the account's credentials
// buy an hour-long token (POST {oauth}/oauth/token, grant_type=account_credentials), kept until a
// minute before it ends; meetings are created, changed and deleted with the REST API (v2).

export interface ZoomConfig {
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** https://zoom.us, or a local fake in tests. */
  oauthUrl: string;
  /** https://api.zoom.us/v2, or a local fake in tests. */
  apiUrl: string;
}

/** Zoom refused or failed; `rateLimited` when it asked us to slow down (HTTP 429). */
export class ZoomError extends Error {
  constructor(
    readonly status: number,
    readonly rateLimited: boolean,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_MARGIN_MS = 60_000;

export function zoom(config: ZoomConfig, fetcher: typeof fetch = fetch, clock: () => number = Date.now): MeetingProvider {
  let token: { value: string; until: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && clock() < token.until) return token.value;
    const response = await fetcher(
      `${config.oauthUrl}/oauth/token?grant_type=account_credentials&account_id=${encodeURIComponent(config.accountId)}`,
      {
        method: "POST",
        headers: { Authorization: `Basic ${btoa(`${config.clientId}:${config.clientSecret}`)}` },
      },
    );
    if (!response.ok) throw await failure(response);
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new ZoomError(response.status, false, "Zoom answered no access token");
    token = { value: body.access_token, until: clock() + (body.expires_in ?? 3600) * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  }

  async function call(method: string, path: string, body?: object): Promise<Response> {
    const send = async () =>
      fetcher(`${config.apiUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${await accessToken()}`, "Content-Type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
    let response = await send();
    // A token revoked or expired early: one fresh token, one more try.
    if (response.status === 401) {
      token = null;
      response = await send();
    }
    if (!response.ok) throw await failure(response);
    return response;
  }

  const fields = (meeting: ProviderMeeting) => ({
    topic: meeting.title,
    type: 2, // scheduled
    start_time: new Date(meeting.startsAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
    duration: meeting.durationMinutes,
    timezone: meeting.timeZone,
    agenda: meeting.agenda.slice(0, 2000),
  });

  return {
    name: "zoom",
    origin: null,
    async create(meeting) {
      const created = (await (await call("POST", "/users/me/meetings", fields(meeting))).json()) as { id?: number; join_url?: string };
      if (!created.id || !created.join_url) throw new ZoomError(201, false, "Zoom answered no meeting");
      return { providerId: String(created.id), joinUrl: created.join_url };
    },
    async update(providerId, meeting) {
      await call("PATCH", `/meetings/${encodeURIComponent(providerId)}`, fields(meeting));
    },
    async hostLink(providerId) {
      const meeting = (await (await call("GET", `/meetings/${encodeURIComponent(providerId)}`)).json()) as { start_url?: string };
      return meeting.start_url ?? null;
    },
    async remove(providerId) {
      try {
        await call("DELETE", `/meetings/${encodeURIComponent(providerId)}`);
      } catch (error) {
        // Already gone at Zoom: removed is what we wanted.
        if (!(error instanceof ZoomError && error.status === 404)) throw error;
      }
    },
  };
}

async function failure(response: Response): Promise<ZoomError> {
  const body = (await response.json().catch(() => ({}))) as { code?: number; message?: string };
  return new ZoomError(response.status, response.status === 429, `Zoom answered ${response.status}: ${body.message ?? "no message"}`);
}
