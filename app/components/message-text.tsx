import { linkParts } from "~/lib/link-parts";

/** A member's message: text escaped by React, http(s) addresses as links that open safely elsewhere. */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap break-words">
      {linkParts(text).map((part, i) =>
        part.href ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc" className="underline">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
