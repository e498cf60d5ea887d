import type { RouterContextProvider } from "react-router";
import { orcidEnabled, orcidLinkRead } from "~/.server/accounts/orcid";
import { countryName, countryNames } from "~/.server/members/countries";
import { organisationRead } from "~/.server/members/organisation";
import { profileRead } from "~/.server/members/profile-settings";
import { registrySearch } from "~/.server/members/ror";
import { followingRead } from "~/.server/notifications/new-items";
import { channelsRead } from "~/.server/notifications/notifications";
import { readTogether } from "~/.server/reads";
import { blockedRead } from "~/.server/social/blocks";
import { requireUser } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import type { ProfileDefaults } from "~/components/profile-form";
import { isLanguage } from "~/lib/i18n";
import type { Section } from "./sections";

/** What the settings pages show: the one `section`, from what every section reads in one round trip. */
export async function settingsPage(request: Request, context: Readonly<RouterContextProvider>, section: Section) {
  const user = requireUser(request, context);
  const locale = getLocale(context);
  const language = isLanguage(locale) ? locale : "en";
  // What the sections show, in one round trip (each page renders its own).
  const [profile, blocked, channels, following, orcid, organisation] = await readTogether([
    profileRead(user.id),
    blockedRead(user.id),
    channelsRead(user.id),
    followingRead(user.id),
    orcidLinkRead(user.id),
    organisationRead(user.id),
  ] as const);
  const defaults: ProfileDefaults = {
    nickName: user.nick_name,
    ...(profile
      ? {
          sex: profile.sex,
          birthday: profile.birthday,
          address: profile.address,
          firstName: profile.first_name,
          middleName: profile.middle_name,
          familyName: profile.family_name,
          country: countryName(profile.country, language),
          nationality: countryName(profile.nationality, language),
          academic: profile.academic,
          research: profile.research,
          website: profile.website,
          phone: profile.phone,
          purpose: profile.purpose,
          abbreviation: profile.abbreviation ?? "",
          industry: profile.industry ?? "",
          organisationPhone: profile.organisation_phone ?? "",
          description: profile.description ?? "",
          legal: profile.legal ?? "",
          organisationEmail: profile.organisation_email ?? "",
          public: profile.public === 1 ? "on" : "",
          orcid: profile.orcid ?? "",
        }
      : {}),
  };
  return {
    section,
    kind: user.kind as "individual" | "facilitator",
    avatar: { image: user.image, name: user.nick_name },
    accountType: user.account_type,
    language,
    defaults,
    countries: countryNames(language),
    today: new Date().toISOString().slice(0, 10),
    blocked,
    channels,
    following,
    orcid: { ...orcid, enabled: orcidEnabled() },
    organisation: {
      ...organisation,
      ...(section === "organisation" ? await registrySearch(new URL(request.url).searchParams.get("ror"), language) : {}),
    },
  };
}
