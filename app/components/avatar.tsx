import { cn } from "~/lib/utils";

/** The member's picture, or a default drawn inline (no extra request before first paint); `className` sizes it (size-8 else). */
export function Avatar({ image, name, className }: { image: string | null; name: string; className?: string }) {
  if (image)
    return <img src={image} alt={name} width={32} height={32} className={cn("rounded-full object-cover", className ?? "size-8")} />;
  return (
    <svg viewBox="0 0 32 32" className={cn("rounded-full", className ?? "size-8")} role="img" aria-label={name}>
      <rect width="32" height="32" fill="#dbeafe" />
      <circle cx="16" cy="13" r="6" fill="#93c5fd" />
      <path d="M5 30c1.5-6 6-9 11-9s9.5 3 11 9z" fill="#93c5fd" />
    </svg>
  );
}
