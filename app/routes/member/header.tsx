import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Avatar } from "~/components/avatar";
import { MessageButton } from "~/components/message-button";
import { OrcidLink, orcidUrl } from "~/components/orcid";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/route";

function Count({ value, label, testId }: { value: number; label: string; testId: string }) {
  return (
    <div className="text-center">
      <div className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </div>
      <div className="text-xs text-slate-500">{label}</div>
    </div>
  );
}

/** Who the member is, their counts, and what a visitor may do: follow, message, block, report. */
export function MemberHeader({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const { member, is_self, viewer_follows, viewer_blocks, profile, country, labels, now } = data;
  const level = t(`membership.${labels}.${member.membership}`);
  return (
    <section className="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <Avatar image={member.image} name={member.nick_name} className="size-16" />
      <div className="min-w-48 flex-1">
        <h2 className="text-xl font-semibold" data-testid="member-name">
          {member.nick_name}
          {member.verified ? (
            <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 align-middle text-xs text-emerald-800" data-testid="verified">
              ✓ {t("verification.verified")}
            </span>
          ) : null}
        </h2>
        <p className="text-sm text-slate-600">
          {member.account_type === 1 ? t("search.researcher") : t("search.investor")} · {t(`member.${member.kind}`)}
          {member.organisation ? ` · ${member.organisation}` : ""}
          {member.organisation_ror ? (
            <>
              {" · "}
              <a href={member.organisation_ror} className="text-brand underline underline-offset-2" data-testid="member-ror">
                {t("ror.link", { name: member.organisation_ror_name ?? member.organisation_ror })}
              </a>
              {member.organisation_ror_confirmed ? (
                <span className="ml-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800" data-testid="ror-confirmed">
                  ✓ {t("ror.confirmed")}
                </span>
              ) : null}
              {" · "}
              <Link
                to={`/retrieval?${new URLSearchParams({ tab: "members", org: member.organisation_ror })}`}
                className="text-brand underline"
              >
                {t("search.itsMembers")}
              </Link>
            </>
          ) : null}
          {" · "}
          <span data-testid="membership">
            {t("membership.level")}: {level}
          </span>
        </p>
        {profile ? (
          <p className="text-sm text-slate-700" data-testid="member-profile">
            {[profile.first_name, profile.middle_name, profile.family_name].join(" ")} · {profile.academic} · {country}
          </p>
        ) : null}
        {member.orcid ? (
          <p className="text-sm" data-testid="member-orcid">
            {member.orcid_verified ? (
              <OrcidLink orcid={member.orcid} />
            ) : (
              <>
                <a href={orcidUrl(member.orcid)} className="text-brand underline underline-offset-2">
                  ORCID iD {member.orcid}
                </a>{" "}
                <span className="text-xs text-slate-600">({t("content.orcidUnverified")})</span>
              </>
            )}
          </p>
        ) : null}
        <p className="text-xs text-slate-500">
          {t("member.joined")} <RelativeTime date={new Date(member.created_at)} now={new Date(now)} />
        </p>
        {is_self ? (
          <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
            <Link to="/personal/Setting" className="text-brand underline underline-offset-2">
              {t("route.setting")}
            </Link>
            <Link to="/personal/verification" className="text-brand underline underline-offset-2">
              {t("route.verification")}
            </Link>
            <Link to="/personal/stats" className="text-brand underline underline-offset-2" data-testid="stats-link">
              {t("route.stats")}
            </Link>
            <Link to="/personal/ranking" className="text-brand underline underline-offset-2">
              {t("route.ranking")}
            </Link>
          </p>
        ) : null}
      </div>
      <div className="flex gap-6">
        <Count value={member.uploads} label={t("member.uploads")} testId="count-uploads" />
        <Count value={member.followers} label={t("member.followers")} testId="count-followers" />
        <Count value={member.following} label={t("member.following")} testId="count-following" />
      </div>
      {is_self ? null : (
        <div className="flex gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value={viewer_follows ? "unfollow" : "follow"} />
            <Button type="submit" variant={viewer_follows ? "outline" : "default"} data-testid="member-follow">
              {viewer_follows ? t("content.unfollow") : t("content.follow")}
            </Button>
          </Form>
          <MessageButton memberId={member.id} />
          <Form method="post">
            <input type="hidden" name="intent" value={viewer_blocks ? "unblock" : "block"} />
            <Button type="submit" variant="outline" data-testid="member-block">
              {viewer_blocks ? t("safety.unblock") : t("safety.block")}
            </Button>
          </Form>
        </div>
      )}
      {is_self ? null : (
        <div className="w-full">
          {viewer_blocks ? (
            <p className="mb-2 text-sm text-slate-600" data-testid="blocked-note">
              {t("safety.blockedNote")}
            </p>
          ) : null}
          <ReportForm target="member" id={member.id} />
        </div>
      )}
    </section>
  );
}
