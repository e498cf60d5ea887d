import Compass from "lucide-react/icons/compass";
import ExternalLink from "lucide-react/icons/external-link";
import House from "lucide-react/icons/house";
import MessageSquare from "lucide-react/icons/message-square";
import Search from "lucide-react/icons/search";
import ShieldCheck from "lucide-react/icons/shield-check";
import Upload from "lucide-react/icons/upload";
import User from "lucide-react/icons/user";
import Video from "lucide-react/icons/video";
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
