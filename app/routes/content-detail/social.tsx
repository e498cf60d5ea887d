import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { MessageButton } from "~/components/message-button";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { Button } from "~/components/ui/button";
import { TextAreaField } from "~/components/ui/field";
import type { commentSchema } from "~/lib/schemas/content";
import type { CommentRow } from "~/lib/shapes";
import { getFormProps, getTextareaProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/route";
import { MentionSuggestions } from "./mention-suggestions";
import { CommentPassage, PassageFields, PassageLink, showsPassage } from "./passage";

/** Like, follow the author, and the comments: every one a plain form, so all work without JavaScript. */
export function Social({
  data: loaded,
  actionData,
}: {
  data: Route.ComponentProps["loaderData"];
  actionData: Route.ComponentProps["actionData"];
}) {
  const { t } = useTranslation();
  const { item, social, isOwner, userId, now, commentKey } = loaded;
  // One level of threads: a reply's parent is its thread's first comment (a reply whose first comment
  // went with its author's account stands on its own).
  const ids = new Set(social.comments.map((comment) => comment.id));
  const threads = social.comments
    .filter((comment) => comment.parent_id === null || !ids.has(comment.parent_id))
    .map((root) => ({ root, replies: social.comments.filter((comment) => comment.parent_id === root.id) }));
  const replyingTo = social.comments.find((comment) => comment.id === loaded.replyTo && !comment.deleted) ?? null;
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
        {threads.map(({ root, replies }) => (
          <li key={root.id} className="flex flex-col gap-1">
            <CommentItem comment={root} userId={userId} now={now} item={item} />
            {replies.length ? (
              <ol className="ml-6 flex flex-col gap-1 border-l-2 border-slate-200 pl-3" aria-label={t("content.reply")}>
                {replies.map((reply) => (
                  <li key={reply.id}>
                    <CommentItem comment={reply} userId={userId} now={now} item={item} />
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
      <Form method="post" {...getFormProps(form)} id="comment-form">
        <input type="hidden" name="client_key" value={commentKey} />
        {replyingTo ? (
          <p className="mb-1 text-sm text-slate-600" data-testid="replying-to">
            <input type="hidden" name="parent_id" value={replyingTo.id} />
            {t("content.replyingTo", { name: replyingTo.nick_name })} ·{" "}
            <Link to={`/retrieval/detail?id=${item.id}#comment-form`} className="text-brand underline underline-offset-2">
              {t("content.cancelReply")}
            </Link>
          </p>
        ) : null}
        {replyingTo ? null : showsPassage(loaded.passage, fields) ? (
          <PassageFields id={item.id} kind={item.kind} fields={fields} />
        ) : (
          <PassageLink id={item.id} />
        )}
        <MentionSuggestions>
          <TextAreaField label={t("content.addComment")} errors={fields.body.errors} {...getTextareaProps(fields.body)} rows={3} />
        </MentionSuggestions>
        <p className="text-xs text-slate-500">{t("content.mentionHelp")}</p>
        {replyingTo || isOwner ? null : (
          <label className="mt-2 flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name={fields.private.name}
              value="1"
              defaultChecked={fields.private.initialValue === "1"}
              className="mt-1"
              data-testid="private-feedback"
            />
            {t("content.privateFeedback")}
          </label>
        )}
        <Button type="submit" name="intent" value="comment" size="sm" className="mt-2">
          {t("content.post")}
        </Button>
      </Form>
    </section>
  );
}

/** One comment: the passage it is on, who and when, its words (or "deleted comment"), reply, and delete or report. */
function CommentItem({
  comment,
  userId,
  now,
  item,
}: {
  comment: CommentRow;
  userId: number;
  now: number;
  item: { id: number; version: number };
}) {
  const { t } = useTranslation();
  const itemId = item.id;
  return (
    <div className="rounded-md bg-slate-50 p-2 text-sm" id={`comment-${comment.id}`} data-testid="comment">
      {comment.deleted ? (
        <p className="text-slate-500 italic">{t("content.deletedComment")}</p>
      ) : (
        <>
          <CommentPassage comment={comment} item={item} />
          <p className="text-xs text-slate-500">
            {comment.nick_name} · <RelativeTime date={new Date(comment.created_at)} now={new Date(now)} />
            {comment.private ? (
              <span className="ml-1 rounded bg-slate-200 px-1" data-testid="private-comment">
                {t("content.privateComment")}
              </span>
            ) : null}
          </p>
          <p className="whitespace-pre-wrap">{comment.body}</p>
          <div className="flex flex-wrap items-center gap-3">
            <Link
              to={`/retrieval/detail?id=${itemId}&reply=${comment.id}#comment-form`}
              className="text-xs text-brand underline underline-offset-2"
            >
              {t("content.reply")}
            </Link>
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
          </div>
        </>
      )}
    </div>
  );
}
