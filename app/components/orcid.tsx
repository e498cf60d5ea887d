import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "./ui/button";

// An ORCID iD as ORCID's guidelines ask: the iD icon and the full https://orcid.org/ link, shown only
// for an iD the member authenticated by signing in to ORCID. A typed co-author iD says it is unverified.

/** ORCID's iD icon (the green circle with "iD"); decorative, the link's text says what it is. */
export function OrcidIcon({ className = "inline-block h-4 w-4 align-[-2px]" }: { className?: string }) {
  return (
    <svg viewBox="0 0 256 256" className={className} aria-hidden="true" focusable="false">
      <circle cx="128" cy="128" r="128" fill="#A6CE39" />
      <path
        fill="#fff"
        d="M86.3 186.2H70.9V79.1h15.4v107.1zM108.9 79.1h41.6c39.6 0 57 28.3 57 53.6 0 27.5-21.5 53.6-56.8 53.6h-41.8V79.1zm15.4 93.3h24.5c34.9 0 42.9-26.5 42.9-39.7C191.7 111.2 178 93 148 93h-23.7v79.4zM88.7 56.8c0 5.5-4.5 10.1-10.1 10.1s-10.1-4.6-10.1-10.1c0-5.6 4.5-10.1 10.1-10.1s10.1 4.6 10.1 10.1z"
      />
    </svg>
  );
}

export const orcidUrl = (orcid: string) => `https://orcid.org/${orcid}`;

/** An authenticated iD: the icon and the full link. */
export function OrcidLink({ orcid, className = "" }: { orcid: string; className?: string }) {
  return (
    <a
      href={orcidUrl(orcid)}
      className={`inline-flex items-center gap-1 text-brand underline underline-offset-2 ${className}`}
      data-testid="orcid-link"
    >
      <OrcidIcon />
      {orcidUrl(orcid)}
    </a>
  );
}

/** Only the icon, linked (beside a name on a card or an item): the label names the iD. */
export function OrcidBadge({ orcid, name }: { orcid: string; name: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={orcidUrl(orcid)}
      className="ml-1 inline-flex align-middle"
      aria-label={t("orcid.recordOf", { name, orcid })}
      data-testid="orcid-badge"
    >
      <OrcidIcon />
    </a>
  );
}

/** "Sign in with ORCID" / "Link your ORCID iD": a plain form, so it works without JavaScript. */
export function OrcidButton({ intent, redirect, label }: { intent: "login" | "link"; redirect?: string; label: string }) {
  return (
    <Form method="post" action="/auth/orcid" reloadDocument>
      <input type="hidden" name="intent" value={intent} />
      {redirect ? <input type="hidden" name="redirect" value={redirect} /> : null}
      <Button type="submit" variant="outline" className="w-full gap-2" data-testid={`orcid-button-${intent}`}>
        <OrcidIcon />
        {label}
      </Button>
    </Form>
  );
}

/** On the sign-up form begun with ORCID: whose iD the account will carry. */
export function OrcidSignupNote({ orcid, name }: { orcid: string; name: string }) {
  const { t } = useTranslation();
  return (
    <p className="mb-4 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900" data-testid="orcid-signup">
      {t("orcid.signingUpAs", { name })} <OrcidLink orcid={orcid} />
    </p>
  );
}
