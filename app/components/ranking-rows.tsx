import { Link } from "react-router";
import type { RankedMember } from "~/lib/shapes";
import { cn } from "~/lib/utils";

/** Ranked members: rank, name linking to their page, score; the signed-in member's row stands out. */
export function RankingRows({
  members,
  me,
  testId,
  className,
}: {
  members: RankedMember[];
  me: number;
  testId: string;
  className?: string;
}) {
  return (
    <ol className={cn("divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white", className)} data-testid={testId}>
      {members.map((member) => (
        <li key={member.user_id} className={member.user_id === me ? "flex gap-3 bg-sky-50 p-2" : "flex gap-3 p-2"}>
          <span className="w-10 text-right tabular-nums text-slate-500">{member.rank}</span>
          <Link to={`/personal?member=${member.user_id}`} className="flex-1 truncate hover:text-brand">
            {member.nick_name}
          </Link>
          <span className="tabular-nums">{member.score.toFixed(2)}</span>
        </li>
      ))}
    </ol>
  );
}
