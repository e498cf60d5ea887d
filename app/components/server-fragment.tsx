import type { ComponentProps } from "react";

/** Markup the server rendered (renderFragment): a static section whose code is not in the page's script. */
export function ServerFragment({ html, ...props }: { html: string } & Omit<ComponentProps<"div">, "children">) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: React rendered it on the server, escaped as any page is
  return <div {...props} dangerouslySetInnerHTML={{ __html: html }} />;
}
