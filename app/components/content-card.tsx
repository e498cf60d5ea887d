import PlayCircle from "lucide-react/icons/circle-play";
import FileText from "lucide-react/icons/file-text";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ALL_RIGHTS_RESERVED } from "~/lib/licenses";
import { sdgKey, sdgStyle } from "~/lib/sdg";
import type { FeedItem } from "~/lib/shapes";
import { cn } from "~/lib/utils";
import { RelativeTime } from "./relative-time";

/** How wide a card is drawn in the default grid: a third of the page from 1280 px, half from 640, a small image beside the text below. */
const SIZES = "(min-width: 1280px) 400px, (min-width: 640px) 50vw, 100px";

/** The most cards a row holds (three on wide screens). */
const FIRST_ROW = 3;

/**
 * One document or video in a list: thumbnail, goal, title, author, counts and age. The thumbnail is
 * the card's size (1x and 2x), sized before it arrives; `first` cards (the first row) load at once.
 * On phones it is small beside the text, so the words, which come with the page, are read first.
 * Its link repeats the title's, so it is hidden from assistive technology and the tab order.
 */
export function ContentCard({
  item,
  now,
  first = false,
  sizes = SIZES,
  level = 3,
}: {
  item: FeedItem;
  now: number;
  first?: boolean;
  sizes?: string;
  level?: 2 | 3;
}) {
  const Title = level === 2 ? "h2" : "h3";
  const thumbnail = `/files/${item.id}/thumbnail`;
  const { t } = useTranslation();
  const Icon = item.kind === "video" ? PlayCircle : FileText;
  return (
    <li className="flex overflow-hidden rounded-lg border border-slate-200 bg-white sm:block" data-testid="content-card">
      <Link
        to={`/retrieval/detail?id=${item.id}`}
        className="w-28 shrink-0 pt-3 pl-3 sm:block sm:w-auto sm:p-0"
        aria-hidden="true"
        tabIndex={-1}
      >
        <img
          src={`${thumbnail}?w=400`}
          srcSet={`${thumbnail}?w=400 400w, ${thumbnail}?w=800 800w`}
          sizes={sizes}
          width={400}
          height={225}
          alt=""
          loading={first ? "eager" : "lazy"}
          fetchPriority={first ? "high" : undefined}
          className="aspect-video h-auto w-full rounded bg-slate-100 object-cover sm:rounded-none"
        />
      </Link>
      <div className="min-w-0 p-3">
        <p className="mb-1 flex items-center gap-2 text-xs">
          <span className="rounded px-1.5 py-0.5" style={sdgStyle(item.sdg)}>
            {item.sdg}. {t(sdgKey(item.sdg))}
          </span>
          <Icon className="size-4 text-slate-400" aria-label={item.kind === "video" ? t("feed.videos") : t("feed.documents")} />
        </p>
        <Title className="font-medium">
          <Link to={`/retrieval/detail?id=${item.id}`} className="hover:text-brand">
            {item.title}
          </Link>
        </Title>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{item.summary}</p>
        {item.machine_text ? (
          <p className="mt-1 text-xs text-slate-500" data-testid="card-machine-text">
            {t("content.byMachine")}
          </p>
        ) : null}
        <p className="mt-2 text-xs text-slate-500">
          {t("content.by", { name: item.owner_name })} · <RelativeTime date={new Date(item.created_at)} now={new Date(now)} /> ·{" "}
          {t("content.views", { count: item.views })} · {t("content.likes", { count: item.likes })}
          {item.license ? (
            <span className="ml-2 rounded border border-slate-300 px-1 py-0.5 text-[0.65rem] text-slate-600" data-testid="license-badge">
              {item.license === ALL_RIGHTS_RESERVED ? t("content.allRightsReserved") : item.license}
            </span>
          ) : null}
        </p>
      </div>
    </li>
  );
}

/** Documents and videos as a grid of cards; `eager`: the grid is the page's first, its first row loads at once. */
export function ContentGrid({
  items,
  now,
  testId,
  columns = "sm:grid-cols-2 xl:grid-cols-3",
  sizes,
  level,
  eager = false,
  paged = false,
}: {
  items: FeedItem[];
  now: number;
  testId: string;
  /** The grid's columns per screen width. */
  columns?: string;
  /** The images' `sizes` for other columns than the default. */
  sizes?: string;
  /** The cards' title headings: h2 where the grid is the page's content, h3 under a section's h2. */
  level?: 2 | 3;
  eager?: boolean;
  /** A paged list, whose next pages the lists module appends (app/enhance/lists.ts). */
  paged?: boolean;
}) {
  return (
    <ul className={cn("grid gap-4", columns)} data-testid={testId} data-paged={paged ? "" : undefined}>
      {items.map((item, at) => (
        <ContentCard key={item.id} item={item} now={now} first={eager && at < FIRST_ROW} sizes={sizes} level={level} />
      ))}
    </ul>
  );
}
