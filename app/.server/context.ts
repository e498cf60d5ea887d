import { createContext } from "react-router";

/** Per-request values the worker entry puts into React Router's context. */
export const requestContext = createContext<{ nonce: string; requestId: string; ctx?: ExecutionContext }>({ nonce: "", requestId: "" });
