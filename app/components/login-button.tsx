import LogIn from "lucide-react/icons/log-in";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonVariants } from "./ui/button";

/** The header's login button for visitors; `redirect` is where login brings them back to. */
export function LoginButton({ redirect }: { redirect?: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : "/login"}
      className={buttonVariants({ size: "sm" })}
      data-testid="login-button"
    >
      <LogIn className="size-4" aria-hidden />
      {t("navbar.login")}
    </Link>
  );
}
