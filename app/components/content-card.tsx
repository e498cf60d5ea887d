import { FileText, PlayCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SDG_COLOURS, sdgKey } from "~/lib/sdg";
import type { FeedItem } from "~/lib/shapes";
import { cn } from "~/lib/utils";
import { RelativeTime } from "./relative-time";

/** One document or video in a list: thumbnail, goal, title, author, counts and age. */
export function ContentCard({ item, now }: { item: FeedItem; now: number }) {
  const { t } = useTranslation();
  const Icon = item.kind === "video" ? PlayCircle : FileText;
  return (
    <li className="overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="content-card">
      <Link to={`/retrieval/detail?id=${item.id}`} className="block">
        <img src={`/files/${item.id}/thumbnail`} alt="" loading="lazy" className="aspect-video w-full bg-slate-100 object-cover" />
      </Link>
      <div className="p-3">
        <p className="mb-1 flex items-center gap-2 text-xs">
          <span className="rounded px-1.5 py-0.5 text-white" style={{ backgroundColor: SDG_COLOURS[item.sdg - 1] }}>
            {item.sdg}. {t(sdgKey(item.sdg))}
          </span>
          <Icon className="size-4 text-slate-400" aria-label={item.kind === "video" ? t("feed.videos") : t("feed.documents")} />
        </p>
        <h3 className="font-medium">
          <Link to={`/retrieval/detail?id=${item.id}`} className="hover:text-brand">
            {item.title}
          </Link>
        </h3>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{item.summary}</p>
        <p className="mt-2 text-xs text-slate-500">
          {t("content.by", { name: item.owner_name })} · <RelativeTime date={new Date(item.created_at)} now={new Date(now)} /> ·{" "}
          {t("content.views", { count: item.views })} · {t("content.likes", { count: item.likes })}
        </p>
      </div>
    </li>
  );
}

/** Documents and videos as a grid of cards. */
export function ContentGrid({ items, now, testId, className }: { items: FeedItem[]; now: number; testId: string; className?: string }) {
  return (
    <ul className={cn("grid gap-4 sm:grid-cols-2 xl:grid-cols-3", className)} data-testid={testId}>
      {items.map((item) => (
        <ContentCard key={item.id} item={item} now={now} />
      ))}
    </ul>
  );
}
