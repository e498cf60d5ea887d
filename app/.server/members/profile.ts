import { env } from "~/.server/bindings";
import { cardColumns } from "~/.server/content/item-texts";
import { rewardsStatement } from "~/.server/ranking/rewards";
import type { Language } from "~/lib/i18n";
import type { MembershipLevel, ProfileTag } from "~/lib/profile-tags";
import type { EarnedReward } from "~/lib/rewards";
import type { FeedItem, MemberSummary } from "~/lib/shapes";
import type { PublicProfile } from "./profile-settings";
import { tagsStatement } from "./tags";

// What a member's page shows: profile basics, uploads, follower and following counts and lists.

export const MEMBER_LIST_SIZE = 50;

export interface MemberProfile extends MemberSummary {
  kind: "individual" | "facilitator";
  organisation: string | null;
  /** The organisation's ROR id and the registry's name for it, when the member picked one (decision 0052). */
  organisation_ror: string | null;
  organisation_ror_name: string | null;
  /** 1 when a reviewer confirmed that ROR record with the member's verification. */
  organisation_ror_confirmed: 0 | 1;
  membership: MembershipLevel;
  /** 1 once a reviewer approved their identity verification. */
  verified: 0 | 1;
  created_at: number;
  followers: number;
  following: number;
  uploads: number;
  /**
   * Their ORCID iD: the one they linked by signing in to ORCID (`orcid_verified` 1), else one typed
   * in a public profile (0, shown as unverified).
   */
  orcid: string | null;
  orcid_verified: 0 | 1;
}

/**
 * One member as `viewerId` sees them, or null when there is no such member. Uploads that are not
 * publicized are listed and counted only for their owner.
 */
export async function memberPage(viewerId: number, memberId: number, reader: Language | null = null) {
  const db = env.DB;
  const own = viewerId === memberId ? 1 : 0;
  const visible = "(c.publicize = 1 OR ?2 = 1)";
  const summary = "u.id, u.nick_name, u.account_type, u.image";
  const [profile, viewer_follows, viewer_blocks, uploads, followers, following, interests, shown, tags, rewards, coAuthored] =
    await db.batch([
      db
        .prepare(
          `SELECT u.id, u.nick_name, u.account_type, u.image, u.kind, u.organisation, u.organisation_ror, u.organisation_ror_name, u.membership, u.created_at,
           coalesce(u.organisation_ror_confirmed = u.organisation_ror, 0) AS organisation_ror_confirmed,
           EXISTS (SELECT 1 FROM verifications v WHERE v.user_id = u.id AND v.status = 'approved') AS verified,
           (SELECT count(*) FROM follows WHERE followee_id = u.id) AS followers,
           (SELECT count(*) FROM follows WHERE follower_id = u.id) AS following,
           (SELECT count(*) FROM content c WHERE c.owner_id = u.id AND ${visible}) AS uploads,
           coalesce(u.orcid, (SELECT orcid FROM profiles WHERE user_id = u.id AND public = 1)) AS orcid,
           u.orcid IS NOT NULL AS orcid_verified
         FROM users u WHERE u.id = ?1 AND u.deleted_at IS NULL`,
        )
        .bind(memberId, own),
      db.prepare("SELECT 1 AS yes FROM follows WHERE follower_id = ? AND followee_id = ?").bind(viewerId, memberId),
      db.prepare("SELECT 1 AS yes FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(viewerId, memberId),
      db
        .prepare(
          `SELECT ${cardColumns(reader)}, u.nick_name AS owner_name
         FROM content c JOIN users u ON u.id = c.owner_id WHERE c.owner_id = ?1 AND ${visible}
         ORDER BY c.created_at DESC, c.id DESC LIMIT ?3`,
        )
        .bind(memberId, own, MEMBER_LIST_SIZE),
      db
        .prepare(
          `SELECT ${summary} FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followee_id = ? ORDER BY f.created_at DESC LIMIT ?`,
        )
        .bind(memberId, MEMBER_LIST_SIZE),
      db
        .prepare(
          `SELECT ${summary} FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ? ORDER BY f.created_at DESC LIMIT ?`,
        )
        .bind(memberId, MEMBER_LIST_SIZE),
      db.prepare("SELECT sdg FROM interests WHERE user_id = ? ORDER BY created_at, sdg").bind(memberId),
      // What the member chose to show of their profile (settings), to everyone, themselves included.
      db
        .prepare("SELECT first_name, middle_name, family_name, academic, research, country FROM profiles WHERE user_id = ? AND public = 1")
        .bind(memberId),
      tagsStatement(memberId),
      rewardsStatement(memberId),
      // Items another member uploaded that list this member's linked iD among their co-authors.
      db
        .prepare(
          `SELECT ${cardColumns(reader)}, o.nick_name AS owner_name
         FROM users m JOIN content_author_ids a ON a.orcid = m.orcid JOIN content c ON c.id = a.content_id JOIN users o ON o.id = c.owner_id
         WHERE m.id = ?1 AND c.owner_id <> ?1 AND (c.publicize = 1 OR c.owner_id = ?2)
         ORDER BY c.created_at DESC, c.id DESC LIMIT ?3`,
        )
        .bind(memberId, viewerId, MEMBER_LIST_SIZE),
    ]);
  const member = profile?.results[0] as MemberProfile | undefined;
  if (!member) return null;
  return {
    member,
    is_self: own === 1,
    viewer_follows: Boolean(viewer_follows?.results.length),
    viewer_blocks: Boolean(viewer_blocks?.results.length),
    uploads: (uploads?.results ?? []) as unknown as FeedItem[],
    co_authored: (coAuthored?.results ?? []) as unknown as FeedItem[],
    followers: (followers?.results ?? []) as unknown as MemberSummary[],
    following: (following?.results ?? []) as unknown as MemberSummary[],
    interests: ((interests?.results ?? []) as { sdg: number }[]).map((row) => row.sdg),
    profile: (shown?.results[0] as PublicProfile | undefined) ?? null,
    tags: (tags?.results ?? []) as unknown as ProfileTag[],
    rewards: (rewards?.results ?? []) as unknown as EarnedReward[],
  };
}
