import { createContext, type RouterContextProvider } from "react-router";

/** Per-request values the worker entry puts into React Router's context. */
export const requestContext = createContext<{ nonce: string; requestId: string; ctx?: ExecutionContext }>({ nonce: "", requestId: "" });

/** Work that finishes after the answer is sent (the worker keeps running for it). */
export function afterAnswer(context: Readonly<RouterContextProvider>) {
  const ctx = context.get(requestContext).ctx;
  return (work: Promise<unknown>) => (ctx ? ctx.waitUntil(work) : void work);
}
