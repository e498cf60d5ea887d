import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "./ui/button";

/** Starts a conversation with the member, or opens the one there is (a form, so it works without JS). */
export function MessageButton({ memberId, size }: { memberId: number; size?: "sm" }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/message">
      <input type="hidden" name="intent" value="start" />
      <input type="hidden" name="member" value={memberId} />
      <Button type="submit" variant="outline" size={size} data-testid="member-message">
        {t("message.start")}
      </Button>
    </Form>
  );
}
