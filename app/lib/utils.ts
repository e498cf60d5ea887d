import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. No merging of conflicting utilities (tailwind-merge costs 8 KB on every page):
 * a component that lets callers change a utility takes the caller's instead of its own default.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
