import { createContext, useContext } from "react";
import type { EnhanceModule } from "./lib/page-handle";

/**
 * What only the server knows when rendering the document: the CSP nonce, the critical CSS, the
 * request id, the code of the small modules (docs/decisions/0046).
 */
export const DocumentContext = createContext<{
  nonce?: string;
  css?: string;
  requestId?: string;
  modules?: Record<EnhanceModule, string>;
}>({});
export const useDocument = () => useContext(DocumentContext);
