import { Compass, ExternalLink, House, MessageSquare, Search, ShieldCheck, Upload, User, Video } from "lucide-react";
import type { IconName } from "~/lib/route-meta";

const icons = {
  home: House,
  discovery: Compass,
  retrieval: Search,
  meeting: Video,
  message: MessageSquare,
  upload: Upload,
  personal: User,
  moderation: ShieldCheck,
  link: ExternalLink,
} satisfies Record<IconName, unknown>;

export function MenuIcon({ name, className = "size-5 shrink-0" }: { name?: IconName; className?: string }) {
  const Icon = icons[name ?? "link"];
  return <Icon className={className} aria-hidden />;
}
