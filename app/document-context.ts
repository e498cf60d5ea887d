import { createContext, useContext } from "react";

/** What only the server knows when rendering the document: the CSP nonce, the critical CSS, the request id. */
export const DocumentContext = createContext<{ nonce?: string; css?: string; requestId?: string }>({});
export const useDocument = () => useContext(DocumentContext);
