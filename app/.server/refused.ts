// The one way a service says no (issue 31; docs/decisions/0037-refusals.md). A refusal carries the
// translation key of what the member reads (values after `|`, as translateError reads them), the
// field it concerns when there is one (or several fields' keys, when a form is checked whole), and
// the HTTP status it means. Services throw it; the API answers it through `refusalAnswer`
// (api/envelope.ts, called by the router for every call) and pages through `refusalReply`
// (web/shell/refusals.ts). Anything else thrown stays a 500 with the request id.

export interface RefusedOptions {
  /** The HTTP status it means: 400 by default. */
  status?: number;
  field?: string;
  /** Seconds before trying again is worth it (a limit). */
  retryAfter?: number;
  /** What the form sent, where its post can be read only once (a streamed multipart): the page shows it again. */
  sent?: Record<string, string>;
}

/** A schema's complaint: the field is its path's first segment (none: the input as a whole). */
export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export class Refused extends Error {
  readonly status: number;
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;
  /** Set by whoever read the post, where it can be read only once (content/create-from-form.ts). */
  sent: Readonly<Record<string, string>> | undefined;
  /** Each field's keys: the one field's, several when a form is checked whole, none for a refusal of the whole. */
  readonly fields: Readonly<Record<string, readonly string[]>>;

  constructor(
    readonly key: string,
    { status = 400, field, retryAfter, sent }: RefusedOptions = {},
    fields: Record<string, string[]> = field ? { [field]: [key] } : {},
  ) {
    super(key);
    this.name = "Refused";
    this.status = status;
    this.field = field;
    this.retryAfter = retryAfter;
    this.sent = sent;
    this.fields = fields;
  }

  /** One refusal beside several fields (a form checked whole); its key and field are the first's. */
  static inFields(fields: Record<string, string[]>, options: Omit<RefusedOptions, "field"> = {}): Refused {
    const [field, [key = "validation.inputEmpty"] = []] = Object.entries(fields)[0] ?? [];
    return new Refused(key, { ...options, field }, fields);
  }

  /** A schema's issues as one refusal. */
  static fromIssues(issues: readonly Issue[], options: Omit<RefusedOptions, "field"> = {}) {
    return Refused.inFields(issuesByField(issues), options);
  }
}

/** A schema's issues by field, as forms show them: an input that is not even an object is "empty". */
export function issuesByField(issues: readonly Issue[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const { path, message } of issues) {
    const field = String(path[0] ?? "");
    fields[field] = [...(fields[field] ?? []), path.length === 0 ? "validation.inputEmpty" : message];
  }
  return fields;
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
