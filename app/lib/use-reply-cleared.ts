import { useEffect, useRef } from "react";
import type { FormMetadata, FormReply } from "~/lib/use-form";

/**
 * When an action's refusal is gone (the next post redirected, or another form on the page was sent),
 * the form goes back to its defaults, as a page without JavaScript would show it.
 * Only on that change: resetting on the first render would wipe what a member typed before hydration.
 */
export function useReplyCleared(form: FormMetadata, lastResult: FormReply | undefined) {
  const previous = useRef(lastResult);
  useEffect(() => {
    if (previous.current && !lastResult) form.reset();
    previous.current = lastResult;
  }, [form, lastResult]);
}
