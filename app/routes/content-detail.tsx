import { parseWithZod } from "@conform-to/zod/v4";
import Download from "lucide-react/icons/download";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { env } from "~/.server/bindings";
import { deleteContent, findContent, findContentFor, recordView, shownItem, updateContent, viewedRead } from "~/.server/content/content";
import { textStateRead } from "~/.server/content/document-text";
import { known, readTogether } from "~/.server/reads";
import { addComment, deleteComment, setFollow, setLike, socialRead } from "~/.server/social/social";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { languageOf } from "~/.server/web/i18n/request-language";
import { flashCookie, flashRedirect, refusedRedirect } from "~/.server/web/shell/flash";
import { CitationMeta, CiteItem, CoAuthors } from "~/components/cite-item";
import { ContentMetadataFields } from "~/components/content-fields";
import { MessageButton } from "~/components/message-button";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { RouteError } from "~/components/route-error";
import { TextStateNote } from "~/components/text-state-note";
import { Button, buttonVariants } from "~/components/ui/button";
import { TextAreaField } from "~/components/ui/field";
import { itemUrl } from "~/lib/citations";
import { authorsText, doiUrl } from "~/lib/identifiers";
import { commentSchema, editContentSchema } from "~/lib/schemas/content";
import { sdgKey, sdgStyle } from "~/lib/sdg";
import { getFormProps, getTextareaProps, useForm } from "~/lib/use-form";
import { useHydrated } from "~/lib/use-hydrated";
import type { Route } from "./+types/content-detail";

const SOCIAL_INTENTS = new Set(["like", "unlike", "follow", "unfollow", "comment", "delete-comment"]);

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = idOf(request);
  const found = Number.isInteger(id) && id > 0 ? await findContentFor(env.DB, id, user) : null;
  if (!found) throw data(null, { status: 404 });
  // A moderator opening a hidden upload to decide on it reads it only: no view counted, no like or comment.
  const { item, moderating } = found;
  const now = Date.now();
  const isOwner = item.owner_id === user.id;
  // What the page shows beside the item, in one round trip; the member's view is counted after the
  // answer (decision 0036), so the figure shown adds it when today's view is new.
  const [social, viewed, text] = await readTogether(env.DB, [
    socialRead(env.DB, user.id, item.id, item.owner_id),
    moderating ? known(true) : viewedRead(env.DB, item.id, user.id, now),
    isOwner ? textStateRead(env.DB, item.id) : known(null),
  ] as const);
  if (!viewed) afterAnswer(context)(recordView(env.DB, item.id, user.id, now).catch((error) => console.error("counting a view", error)));
  // A search result found in the document's text opens it at that page.
  const page = Number(new URL(request.url).searchParams.get("page"));
  // A fresh key for the comment form on every render: its submission is stored once however often it arrives.
  const commentKey = crypto.randomUUID();
  const { citeItem } = await import("~/.server/content/citation");
  const origin = new URL(request.url).origin;
  return {
    item: { ...shownItem(item), views: item.views + (viewed ? 0 : 1) },
    references: citeItem(item, itemUrl(origin, item.id), ["apa", "harvard", "bibtex"], languageOf(request)),
    pdfUrl: item.kind === "document" ? `${origin}/files/${item.id}` : null,
    isOwner,
    moderating,
    text,
    page: item.kind === "document" && Number.isInteger(page) && page > 1 ? page : null,
    userId: user.id,
    social,
    now,
    commentKey,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const id = idOf(request);
  const intent = String(form.get("intent") ?? "");
  if (SOCIAL_INTENTS.has(intent)) {
    // Anyone who may see the item may like, comment and follow its author; each is a form (PRG).
    const item = await findContent(env.DB, id, user.id);
    if (!item) throw data(null, { status: 404 });
    const now = Date.now();
    if (intent === "like" || intent === "unlike") await setLike(env.DB, user.id, id, intent === "like", now);
    const back = `/retrieval/detail?id=${id}`;
    if (intent === "follow" || intent === "unfollow") {
      if (!(await setFollow(env.DB, user.id, item.owner_id, intent === "follow", now))) return refusedRedirect(request, back);
    }
    if (intent === "delete-comment") await deleteComment(env.DB, user.id, Number(form.get("comment")));
    if (intent === "comment") {
      const submission = parseWithZod(form, { schema: commentSchema });
      if (submission.status !== "success")
        return data({ result: undefined, confirmDelete: false, comment: submission.reply() }, { status: 400 });
      const added = await addComment(env.DB, user.id, id, submission.value.body, now, submission.value.client_key);
      if (added === "refused") return refusedRedirect(request, back);
    }
    return redirect(back, { status: 303 });
  }
  if (intent === "edit") {
    const submission = parseWithZod(form, { schema: editContentSchema });
    if (submission.status !== "success")
      return data({ result: submission.reply(), confirmDelete: false, comment: undefined }, { status: 400 });
    if (!(await updateContent(env.DB, id, user.id, submission.value, Date.now()))) throw data(null, { status: 404 });
    return redirect(`/retrieval/detail?id=${id}`, {
      status: 303,
      headers: { "Set-Cookie": flashCookie(request, "success", "notify.updateSuccess") },
    });
  }
  if (form.get("intent") !== "delete") throw data(null, { status: 400 });
  // Without JavaScript the first press asks again on the page; the dialog does that with it.
  if (form.get("confirm") !== "1") return { result: undefined, confirmDelete: true, comment: undefined };
  if (!(await deleteContent(env.DB, env.FILES, id, user.id))) throw data(null, { status: 404 });
  return flashRedirect(request, "/upload", "success", "content.deleted");
}

/** A document or video: its viewer, the facts about it, and (for its owner) delete. */
export default function ContentDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, isOwner, now } = loaderData;
  const fileUrl = `/files/${item.id}`;
  const pdfAt = loaderData.page ? `${fileUrl}#page=${loaderData.page}` : fileUrl;
  return (
    <article className="mx-auto max-w-4xl" data-testid="content-detail">
      <title>{`${item.title} - ${t("product.title")}`}</title>
      <CitationMeta item={item} pdfUrl={loaderData.pdfUrl} />
      {item.hidden_at ? (
        <p role="status" className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="hidden-note">
          {loaderData.moderating ? t("safety.hiddenModeratorView") : t("safety.hiddenByModerator")}
        </p>
      ) : null}
      <header className="mb-4">
        <p className="mb-2 flex flex-wrap items-center gap-2 text-xs">
          <span className="rounded px-2 py-0.5 font-medium" style={sdgStyle(item.sdg)} data-testid="sdg">
            {item.sdg}. {t(sdgKey(item.sdg))}
          </span>
          {item.publicize ? null : <span className="rounded bg-slate-200 px-2 py-0.5">{t("content.privateBadge")}</span>}
        </p>
        <h2 className="text-2xl font-semibold" data-testid="content-title">
          {item.title}
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          <Link to={`/personal?member=${item.owner_id}`} className="text-brand underline underline-offset-2">
            {t("content.by", { name: item.owner_name })}
          </Link>
          <CoAuthors authors={item.authors} />
          {item.doi ? (
            <>
              {" · "}
              <a href={doiUrl(item.doi)} className="text-brand underline underline-offset-2" data-testid="doi">
                doi:{item.doi}
              </a>
            </>
          ) : null}{" "}
          · <RelativeTime date={new Date(item.created_at)} now={new Date(now)} /> ·{" "}
          <span data-testid="views">{t("content.views", { count: item.views })}</span> · {t("content.likes", { count: item.likes })}
        </p>
      </header>
      <div className="mb-4 overflow-hidden rounded-lg border border-slate-200 bg-black/90">
        {item.kind === "video" ? (
          // biome-ignore lint/a11y/useMediaCaption: members' uploads come without caption tracks
          <video
            controls
            preload="metadata"
            poster={`${fileUrl}/thumbnail?w=800`}
            src={fileUrl}
            className="aspect-video w-full"
            data-testid="video"
          />
        ) : (
          <PdfViewer src={pdfAt} title={item.title} fallback={t("content.noPdfViewer")} />
        )}
      </div>
      <p className="mb-4 flex gap-2">
        <a href={`${fileUrl}?download`} className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="download">
          <Download className="size-4" aria-hidden />
          {t("content.download")}
        </a>
        {item.kind === "document" ? (
          <a
            href={pdfAt}
            target="_blank"
            rel="noopener"
            className={buttonVariants({ variant: "ghost", size: "sm" })}
            data-testid="open-pdf"
          >
            {t("content.openPdf")}
          </a>
        ) : null}
      </p>
      {loaderData.text ? <TextStateNote text={loaderData.text} /> : null}
      <section className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-[160px_1fr]">
        <img
          src={`${fileUrl}/thumbnail?w=400`}
          width={160}
          height={90}
          alt=""
          loading="lazy"
          className="aspect-video w-40 rounded border border-slate-200 object-cover"
        />
        <div>
          <h3 className="font-medium">{t("content.summary")}</h3>
          <p className="mb-3 whitespace-pre-wrap text-slate-700" data-testid="summary">
            {item.summary}
          </p>
          <h3 className="font-medium">{t("content.content")}</h3>
          <p className="mb-3 whitespace-pre-wrap text-slate-700">{item.content}</p>
          <ul className="flex flex-wrap gap-1" aria-label={t("content.keywords")}>
            {item.keywords
              .split(/[,、，]/)
              .map((k) => k.trim())
              .filter(Boolean)
              .map((keyword) => (
                <li key={keyword} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs">
                  {keyword}
                </li>
              ))}
          </ul>
        </div>
      </section>
      <CiteItem id={item.id} references={loaderData.references} />
      {isOwner || loaderData.moderating ? null : <ReportForm target="content" id={item.id} />}
      {loaderData.moderating ? null : <Social data={loaderData} actionData={actionData} />}
      {isOwner ? <OwnerActions item={item} actionData={actionData} /> : null}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}

type Shown = Route.ComponentProps["loaderData"]["item"];

/** The owner's edit form (a disclosure, no JavaScript needed) and delete with confirmation. */
function OwnerActions({ item, actionData }: { item: Shown; actionData: Route.ComponentProps["actionData"] }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof editContentSchema>>({
    lastResult: actionData?.result,
    defaultValue: {
      sdg: String(item.sdg),
      title: item.title,
      summary: item.summary,
      content: item.content,
      keywords: item.keywords,
      publicize: String(item.publicize),
      doi: item.doi ?? "",
      authors: authorsText(item.authors),
    },
  });
  return (
    <div className="mt-4 flex flex-col gap-3">
      <details className="rounded-lg border border-slate-200 bg-white p-4" open={Boolean(actionData?.result)} data-testid="edit">
        <summary className="font-medium">{t("content.edit")}</summary>
        <Form method="post" {...getFormProps(form)} className="mt-3">
          <ContentMetadataFields fields={fields} />
          <Button type="submit" name="intent" value="edit">
            {t("content.save")}
          </Button>
        </Form>
      </details>
      <Form
        method="post"
        onSubmit={(event) => {
          if (!window.confirm(t("content.deleteConfirm"))) return event.preventDefault();
          const confirm = event.currentTarget.elements.namedItem("confirm") as HTMLInputElement | null;
          if (confirm) confirm.value = "1";
        }}
      >
        {actionData?.confirmDelete ? (
          <p role="alert" className="mb-2 text-sm text-red-700" data-testid="delete-question">
            {t("content.deleteConfirm")}
          </p>
        ) : null}
        <input type="hidden" name="confirm" value={actionData?.confirmDelete ? "1" : ""} />
        <Button type="submit" name="intent" value="delete" variant="outline" className="text-red-700" data-testid="delete">
          {t("content.delete")}
        </Button>
      </Form>
    </div>
  );
}

/** Like, follow the author, and the comments: every one a plain form, so all work without JavaScript. */
function Social({
  data: loaded,
  actionData,
}: {
  data: Route.ComponentProps["loaderData"];
  actionData: Route.ComponentProps["actionData"];
}) {
  const { t } = useTranslation();
  const { item, social, isOwner, userId, now, commentKey } = loaded;
  const [form, fields] = useForm<z.input<typeof commentSchema>>({
    lastResult: actionData?.comment,
  });
  return (
    <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="social">
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Form method="post">
          <Button
            type="submit"
            name="intent"
            value={social.liked ? "unlike" : "like"}
            variant={social.liked ? "default" : "outline"}
            size="sm"
            data-testid="like"
          >
            {social.liked ? t("content.unlike") : t("content.like")} · {t("content.likes", { count: item.likes })}
          </Button>
        </Form>
        {isOwner ? null : (
          <Form method="post">
            <Button
              type="submit"
              name="intent"
              value={social.following ? "unfollow" : "follow"}
              variant="outline"
              size="sm"
              data-testid="follow"
            >
              {social.following ? t("content.unfollow") : t("content.follow")} {item.owner_name}
            </Button>
          </Form>
        )}
        {isOwner ? null : <MessageButton memberId={item.owner_id} size="sm" />}
        <span className="text-sm text-slate-500" data-testid="followers">
          {item.owner_name}: {t("content.followers", { count: social.followers })}
        </span>
      </div>
      <h3 className="mb-2 font-medium">{t("content.comments")}</h3>
      {social.comments.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("content.noComments")}</p> : null}
      <ol className="mb-3 flex flex-col gap-2" data-testid="comments">
        {social.comments.map((comment) => (
          <li key={comment.id} className="rounded-md bg-slate-50 p-2 text-sm">
            <p className="text-xs text-slate-500">
              {comment.nick_name} · <RelativeTime date={new Date(comment.created_at)} now={new Date(now)} />
            </p>
            <p className="whitespace-pre-wrap">{comment.body}</p>
            {comment.user_id === userId ? (
              <Form method="post">
                <input type="hidden" name="comment" value={comment.id} />
                <Button type="submit" name="intent" value="delete-comment" variant="link" size="inline">
                  {t("content.deleteComment")}
                </Button>
              </Form>
            ) : (
              <ReportForm target="comment" id={comment.id} />
            )}
          </li>
        ))}
      </ol>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="client_key" value={commentKey} />
        <TextAreaField label={t("content.addComment")} errors={fields.body.errors} {...getTextareaProps(fields.body)} rows={3} />
        <Button type="submit" name="intent" value="comment" size="sm" className="mt-2">
          {t("content.post")}
        </Button>
      </Form>
    </section>
  );
}

/**
 * The browser's PDF viewer in a frame. With JavaScript it opens once the page is hydrated: the viewer
 * runs on the page's own thread and its file shares the network, which on a slow phone delayed the
 * page's buttons by a few hundred milliseconds. Without JavaScript it opens at once. Its box is
 * there from the start, so nothing moves when it opens.
 */
function PdfViewer({ src, title, fallback }: { src: string; title: string; fallback: string }) {
  const hydrated = useHydrated();
  const frame = (
    <iframe src={src} title={title} className="h-full w-full" data-testid="pdf-viewer">
      {fallback}
    </iframe>
  );
  return <div className="h-[70vh] w-full bg-white">{hydrated ? frame : <noscript>{frame}</noscript>}</div>;
}
