/**
 * A part of app/enhance/on-demand, fetched when first needed (docs/decisions/0047): `path` is its
 * address, `__ON_DEMAND__["name"]` written where the part is named. A failed fetch (the network)
 * is tried again at the next need.
 */
export function onDemand<Part>(path: string | undefined): () => Promise<Part> {
  let loading: Promise<Part> | null = null;
  return () => {
    loading ??= import(/* @vite-ignore */ path ?? "") as Promise<Part>;
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
}
