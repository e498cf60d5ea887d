import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";

/**
 * The owner's tools: the details, the statistics, a new version, other languages and the captions each on a page of
 * their own (decisions 0043, 0047), and delete with confirmation.
 */
export function OwnerActions({
  id,
  latest,
  video,
  captionCount,
  confirmDelete,
}: {
  id: number;
  /** The latest version is shown (an earlier one gets no new version or captions from here). */
  latest: boolean;
  video: boolean;
  captionCount: number;
  confirmDelete: boolean;
}) {
  const { t } = useTranslation();
  const tool = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <div className="mt-4 flex flex-col gap-3">
      <p className="flex flex-wrap gap-2">
        <Link to={`/retrieval/detail/edit?id=${id}`} className={tool} data-testid="edit-link">
          {t("content.edit")}
        </Link>
        <Link to={`/retrieval/detail/stats?id=${id}`} className={tool} data-testid="item-stats-link">
          {t("stats.itemStats")}
        </Link>
        {latest ? (
          <Link to={`/retrieval/detail/version?id=${id}`} className={tool} data-testid="add-version">
            {t("content.addVersion")}
          </Link>
        ) : null}
        <Link to={`/retrieval/detail/texts?id=${id}`} className={tool} data-testid="manage-texts">
          {t("content.textsLink")}
        </Link>
        <Link to={`/retrieval/detail/funding?id=${id}`} className={tool} data-testid="manage-funding">
          {t("funding.link")}
        </Link>
        {latest && video ? (
          <Link to={`/retrieval/detail/captions?id=${id}`} className={tool} data-testid="manage-captions">
            {t("content.captionsManage", { count: captionCount })}
          </Link>
        ) : null}
      </p>
      {/* With JavaScript a dialog asks (the shell module reads data-confirm); without, the server asks once more. */}
      <Form method="post" data-confirm={t("content.deleteConfirm")}>
        {confirmDelete ? (
          <p role="alert" className="mb-2 text-sm text-red-700" data-testid="delete-question">
            {t("content.deleteConfirm")}
          </p>
        ) : null}
        <input type="hidden" name="confirm" value={confirmDelete ? "1" : ""} />
        <Button type="submit" name="intent" value="delete" variant="outline" className="text-red-700" data-testid="delete">
          {t("content.delete")}
        </Button>
      </Form>
    </div>
  );
}
