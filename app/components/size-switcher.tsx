import { useTranslation } from "react-i18next";
import { Form, useLocation, useRouteLoaderData } from "react-router";
import { DEFAULT_SIZE, SIZES } from "~/lib/display-size";
import type { RootShellData } from "~/lib/shapes";
import { cn } from "~/lib/utils";

const GLYPH = { small: "text-[11px]", medium: "text-sm", large: "text-base" } as const;

/** Small / medium / large, as three buttons of a plain form under the Settings heading: the page reloads at the chosen size. */
export function SizeSwitcher({ className }: { className?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const current = useRouteLoaderData<RootShellData>("root")?.size ?? DEFAULT_SIZE;
  return (
    <Form method="post" action="/shell/size" reloadDocument className={cn("flex items-center", className)} data-testid="size-switcher">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {SIZES.map((size) => (
        <button
          key={size}
          type="submit"
          name="size"
          value={size}
          title={t(`size.${size}`)}
          aria-label={t(`size.${size}`)}
          aria-pressed={current === size}
          className={cn(
            "min-w-6 rounded px-1 py-0.5 leading-none font-medium hover:text-brand",
            GLYPH[size],
            current === size ? "bg-slate-100 text-brand" : "text-slate-500",
          )}
        >
          A
        </button>
      ))}
    </Form>
  );
}
