import { Link } from "react-router";
import type { MemberSummary } from "~/lib/shapes";
import { Avatar } from "./avatar";

/** Members as links to their pages, with their pictures. */
export function MemberList({ members, empty, testId }: { members: MemberSummary[]; empty: string; testId: string }) {
  if (members.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <ul className="flex flex-col gap-2" data-testid={testId}>
      {members.map((member) => (
        <li key={member.id}>
          <Link to={`/personal?member=${member.id}`} className="flex items-center gap-2 hover:text-brand">
            <Avatar image={member.image} name={member.nick_name} />
            {member.nick_name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
