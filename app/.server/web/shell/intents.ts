import { data } from "react-router";

// A page's forms say what they do with `intent` (a hidden field or the submit button's value). Each
// route folder exports its intents as one map, `satisfies Intents<…>`, and its action is one call to
// `runIntent`: a newcomer finds every form a page answers in one place, one short function each.

/** What an intent answers: a redirect, the form again with its reply, or nothing for the route's own answer. */
export type Intents<Args> = Record<string, (args: Args) => unknown>;

/** Runs the posted intent; one the route does not have is a 400. */
export function runIntent<Args, Map extends Intents<Args>>(
  intents: Map,
  intent: FormDataEntryValue | null,
  args: Args,
): ReturnType<Map[keyof Map]> {
  const run = typeof intent === "string" && Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (!run) throw data(null, { status: 400 });
  return run(args) as ReturnType<Map[keyof Map]>;
}
