import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { countryName } from "~/.server/members/countries";
import { addInterest, removeInterest } from "~/.server/members/interests";
import { memberPage } from "~/.server/members/profile";
import { addTag, removeTag } from "~/.server/members/tags";
import { attempt, Refused } from "~/.server/refused";
import { block, hasBlocked, unblock } from "~/.server/social/blocks";
import { followMember } from "~/.server/social/social";
import { requireUser } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { flashRedirect, refusedRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusal-reply";
import { AddOneForm } from "~/components/add-one-form";
import { Avatar } from "~/components/avatar";
import { ContentGrid } from "~/components/content-card";
import { GoalSelect } from "~/components/content-fields";
import { MemberList } from "~/components/member-list";
import { MessageButton } from "~/components/message-button";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { Button } from "~/components/ui/button";
import { isLanguage } from "~/lib/i18n";
import { MAX_INTERESTS, TAG_LIMITS, TAG_MAX } from "~/lib/limits";
import { DEFAULT_TAGS, type DefaultTag, type MembershipLevel } from "~/lib/profile-tags";
import { REWARDS } from "~/lib/rewards";
import { interestSchema } from "~/lib/schemas/content";
import { tagSchema } from "~/lib/schemas/tags";
import { sdgKey, sdgStyle } from "~/lib/sdg";
import type { Route } from "./+types/member";

/** /personal is the member's own page; /personal?member=ID is anyone's. */
const memberIdOf = (request: Request, selfId: number) => {
  const raw = new URL(request.url).searchParams.get("member");
  return raw === null ? selfId : Number(raw);
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = memberIdOf(request, user.id);
  const page = Number.isInteger(id) && id > 0 ? await memberPage(env.DB, user.id, id) : null;
  if (!page) throw data(null, { status: 404 });
  const viewerBlocks = !page.is_self && (await hasBlocked(env.DB, user.id, id));
  const locale = getLocale(context);
  const country = page.profile ? countryName(page.profile.country, isLanguage(locale) ? locale : "en") : null;
  return { ...page, viewerBlocks, country, labels: config().membershipLabels, now: Date.now() };
}

/** Adds one thing from a one-field form; answers Conform's reply when refused (by the schema or the service), else null. */
async function addOne<S extends z.ZodObject>(form: FormData, schema: S, add: (value: z.infer<S>) => Promise<void>) {
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return submission.reply();
  const added = await attempt(() => add(submission.value));
  return added instanceof Refused ? refusalReply(submission, added).reply : null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = memberIdOf(request, user.id);
  const now = Date.now();
  if (intent === "follow" || intent === "unfollow") {
    const followed = await followMember(env.DB, user.id, id, intent === "follow", now);
    if (followed === "missing") throw data(null, { status: 404 });
    if (followed === "refused") return refusedRedirect(request, `/personal?member=${id}`);
  } else if (intent === "block" || intent === "unblock") {
    if (!Number.isInteger(id) || id <= 0 || id === user.id) throw data(null, { status: 404 });
    if (intent === "unblock") await unblock(env.DB, user.id, id);
    // Refused (an unknown member, or the block list is full) unless it was already in place.
    else if (!(await block(env.DB, user.id, id, now)) && !(await hasBlocked(env.DB, user.id, id)))
      return refusedRedirect(request, `/personal?member=${id}`);
    const done = intent === "block" ? "safety.blockDone" : "safety.unblockDone";
    return flashRedirect(request, `/personal?member=${id}`, "success", done);
  } else if (intent === "add-interest") {
    // Interests and tags are one's own: whatever page the form was on, they go to the signed-in member.
    const refused = await addOne(form, interestSchema, (value) => addInterest(env.DB, user.id, value.sdg, now));
    if (refused) return data({ interest: refused }, { status: 400 });
  } else if (intent === "add-tag") {
    const level = user.membership as MembershipLevel;
    const refused = await addOne(form, tagSchema, (value) => addTag(env.DB, user.id, level, value.tag, now));
    if (refused) return data({ tag: refused }, { status: 400 });
  } else if (intent === "remove-tag") {
    await removeTag(env.DB, user.id, Number(form.get("tag")));
  } else if (intent === "remove-interest") {
    await removeInterest(env.DB, user.id, Number(form.get("sdg")));
  } else {
    throw data(null, { status: 400 });
  }
  const member = new URL(request.url).searchParams.get("member");
  return redirect(member === null ? "/personal" : `/personal?member=${id}`, { status: 303 });
}

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

function GoalChip({ sdg, children }: { sdg: number; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-1 rounded-full px-3 py-1 text-sm" style={sdgStyle(sdg)}>
      {sdg}. {t(sdgKey(sdg))}
      {children}
    </li>
  );
}

/** A member's page: who they are, what they uploaded, who follows them and whom they follow. */
export default function MemberPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const {
    member,
    is_self,
    viewer_follows,
    viewerBlocks,
    uploads,
    followers,
    following,
    interests,
    profile,
    country,
    tags,
    labels,
    rewards,
    now,
  } = loaderData;
  const level = t(`membership.${labels}.${member.membership}`);
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6" data-testid="member-page">
      <title>{`${t("route.space")}: ${member.nick_name} - ${t("product.title")}`}</title>
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
            <p className="text-sm">
              <a href={`https://orcid.org/${member.orcid}`} className="text-brand underline underline-offset-2" data-testid="member-orcid">
                ORCID iD {member.orcid}
              </a>
            </p>
          ) : null}
          <p className="text-xs text-slate-500">
            {t("member.joined")} <RelativeTime date={new Date(member.created_at)} now={new Date(now)} />
          </p>
          {is_self ? (
            <p className="mt-1 flex gap-3 text-sm">
              <Link to="/personal/Setting" className="text-brand underline underline-offset-2">
                {t("route.setting")}
              </Link>
              <Link to="/personal/verification" className="text-brand underline underline-offset-2">
                {t("route.verification")}
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
              <input type="hidden" name="intent" value={viewerBlocks ? "unblock" : "block"} />
              <Button type="submit" variant="outline" data-testid="member-block">
                {viewerBlocks ? t("safety.unblock") : t("safety.block")}
              </Button>
            </Form>
          </div>
        )}
        {is_self ? null : (
          <div className="w-full">
            {viewerBlocks ? (
              <p className="mb-2 text-sm text-slate-600" data-testid="blocked-note">
                {t("safety.blockedNote")}
              </p>
            ) : null}
            <ReportForm target="member" id={member.id} />
          </div>
        )}
      </section>

      <section data-testid="rewards">
        <h2 className="mb-2 font-medium">{t("rewards.title")}</h2>
        {rewards.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("rewards.none")}</p> : null}
        <ul className="mb-2 flex flex-wrap gap-2">
          {rewards.map((earned) => (
            <li key={earned.reward} className="rounded-full bg-amber-100 px-3 py-1 text-sm text-amber-900">
              ★ {t(`rewards.name.${earned.reward}`)}
            </li>
          ))}
        </ul>
        {is_self ? (
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer">{t("rewards.rules")}</summary>
            <ul className="mt-1 list-disc pl-5" data-testid="reward-rules">
              {REWARDS.map(({ key, count }) => (
                <li key={key}>
                  {t(`rewards.name.${key}`)}: {t(`rewards.rule.${key}`, { count })}
                  {rewards.some((earned) => earned.reward === key) ? " ✓" : ""}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      <section data-testid="tags">
        <h2 className="mb-2 font-medium">{t("member.tags")}</h2>
        {tags.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("member.noTags")}</p> : null}
        <ul className="mb-2 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li key={tag.id} className="flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm">
              {tag.custom ? tag.tag : t(`tags.${tag.tag as DefaultTag}`)}
              {is_self ? (
                <Form method="post" className="contents">
                  <input type="hidden" name="intent" value="remove-tag" />
                  <input type="hidden" name="tag" value={tag.id} />
                  <button
                    type="submit"
                    className="-my-1 inline-flex size-6 items-center justify-center rounded-full hover:bg-black/10"
                    aria-label={t("member.removeTag")}
                  >
                    ×
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {is_self ? (
          <AddOneForm
            intent="add-tag"
            field="tag"
            label={t("member.addTag")}
            help={t("member.tagsHelp", { count: tags.length, max: TAG_LIMITS[member.membership], level })}
            lastResult={actionData && "tag" in actionData ? actionData.tag : undefined}
            control={(props) => (
              <>
                <input
                  {...props}
                  list="default-tags"
                  maxLength={TAG_MAX}
                  className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-500"
                />
                <datalist id="default-tags">
                  {DEFAULT_TAGS.map((key) => (
                    <option key={key} value={t(`tags.${key}`)} />
                  ))}
                </datalist>
              </>
            )}
          />
        ) : null}
      </section>

      <section data-testid="interests">
        <h2 className="mb-2 font-medium">{t("member.interests")}</h2>
        {interests.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("member.noInterests")}</p> : null}
        <ul className="mb-2 flex flex-wrap gap-2">
          {interests.map((sdg) => (
            <GoalChip key={sdg} sdg={sdg}>
              {is_self ? (
                <Form method="post" className="contents">
                  <input type="hidden" name="intent" value="remove-interest" />
                  <input type="hidden" name="sdg" value={sdg} />
                  <button
                    type="submit"
                    className="-my-1 inline-flex size-6 items-center justify-center rounded-full hover:bg-black/20"
                    aria-label={t("member.removeInterest")}
                  >
                    ×
                  </button>
                </Form>
              ) : null}
            </GoalChip>
          ))}
        </ul>
        {is_self ? (
          <AddOneForm
            intent="add-interest"
            field="sdg"
            label={t("member.addInterest")}
            help={t("member.interestsHelp", { max: MAX_INTERESTS })}
            lastResult={actionData && "interest" in actionData ? actionData.interest : undefined}
            control={(props) => <GoalSelect {...props} emptyLabel="—" />}
          />
        ) : null}
      </section>

      <section>
        <h2 className="mb-2 font-medium">{t("member.uploads")}</h2>
        {uploads.length === 0 ? <p className="text-sm text-slate-500">{t("member.noUploads")}</p> : null}
        <ContentGrid items={uploads} now={now} testId="member-uploads" />
      </section>

      <div className="grid gap-6 sm:grid-cols-2">
        <section>
          <h2 className="mb-2 font-medium">{t("member.followers")}</h2>
          <MemberList members={followers} empty={t("member.noFollowers")} testId="member-followers" />
        </section>
        <section>
          <h2 className="mb-2 font-medium">{t("member.following")}</h2>
          <MemberList members={following} empty={t("member.noFollowing")} testId="member-following" />
        </section>
      </div>
    </div>
  );
}
