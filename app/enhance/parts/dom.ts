/** The element matching `selector` at or above an event's target, if any (listeners sit on the document). */
export const closest = <T extends Element>(target: EventTarget | null, selector: string) =>
  target instanceof Element ? (target.closest(selector) as T | null) : null;
