// The one way a service says no (issue 31; docs/decisions/0037-refusals.md). A refusal carries the
// translation key of what the member reads (values after `|`, as translateError reads them), the
// field it concerns when there is one, and the HTTP status it means. Services throw it; the API
// answers it through `refusalAnswer` (api/envelope.ts, called by the router for every call) and
// pages through `refusalReply` (web/shell/refusal-reply.ts).
// Anything else thrown stays a 500 with the request id.

export interface RefusedOptions {
  /** The HTTP status it means: 400 by default. */
  status?: number;
  field?: string;
  /** Seconds before trying again is worth it (a limit). */
  retryAfter?: number;
}

export class Refused extends Error {
  readonly status: number;
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    readonly key: string,
    { status = 400, field, retryAfter }: RefusedOptions = {},
  ) {
    super(key);
    this.name = "Refused";
    this.status = status;
    this.field = field;
    this.retryAfter = retryAfter;
  }
}

/** Runs a service call, answering its refusal as a value (anything else is thrown on). */
export async function attempt<T>(work: () => Promise<T>): Promise<T | Refused> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return error;
    throw error;
  }
}
