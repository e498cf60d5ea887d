import { createContext, useContext } from "react";

/** What only the server knows when rendering the document: the CSP nonce and the critical CSS. */
export const DocumentContext = createContext<{ nonce?: string; css?: string }>({});
export const useDocument = () => useContext(DocumentContext);
