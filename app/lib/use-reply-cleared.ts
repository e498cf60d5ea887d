import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";

/**
 * Conform keeps showing an action's refusal after the answer is gone (the next post redirected, or
 * another form on the page was sent); reset the form then, as a page without JavaScript would show it.
 * Only on that change: resetting on the first render would wipe what a member typed before hydration.
 */
export function useReplyCleared(form: FormMetadata, lastResult: SubmissionResult | undefined) {
  const previous = useRef(lastResult);
  useEffect(() => {
    if (previous.current && !lastResult) form.reset();
    previous.current = lastResult;
  }, [form, lastResult]);
}
