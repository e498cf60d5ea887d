import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "~/lib/utils";

// The shape every button shares is one class (app.css), not its utilities repeated on each.
export const buttonVariants = cva("btn", {
  variants: {
    variant: {
      default: "bg-brand text-white hover:bg-brand/90",
      outline: "border border-slate-300 bg-white hover:bg-slate-100",
      ghost: "hover:bg-slate-100",
      link: "text-brand underline-offset-4 hover:underline",
      danger: "bg-red-700 text-white hover:bg-red-800",
    },
    size: {
      default: "h-9 px-4 text-sm",
      sm: "h-8 px-3 text-xs",
      icon: "h-9 w-9 text-sm",
      /** As tall as the text around it (a link among words). */
      inline: "text-xs",
    },
  },
  defaultVariants: { variant: "default", size: "default" },
});

export function Button({ className, variant, size, ...props }: React.ComponentProps<"button"> & VariantProps<typeof buttonVariants>) {
  return <button className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
