import { useEffect, useState } from "react";

/** False in the server's HTML and while hydrating, true after: for what only JavaScript can show. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
