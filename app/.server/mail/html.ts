import { escapeHtml } from "~/lib/escape-html";

// A mail's HTML part, made from the same pieces as its text part (every mail has both): paragraphs,
// sections of linked lines, and a footer. Inline styles only, as mail clients require; every value
// is escaped, and every link is absolute (mail has no page to be relative to).

export interface MailLink {
  text: string;
  href: string;
}

export interface MailContent {
  language: string;
  title: string;
  paragraphs: string[];
  sections?: { heading: string; links: MailLink[] }[];
  footer: MailLink[];
}

/** The text part: paragraphs, each section's lines with their links, then the footer's links. */
export function mailText(content: MailContent): string {
  const sections = (content.sections ?? []).map(
    (section) => `${section.heading}\n${section.links.map((link) => `- ${link.text}\n  ${link.href}`).join("\n")}`,
  );
  const footer = content.footer.map((link) => `${link.text}: ${link.href}`);
  return [...content.paragraphs, ...sections, "--", ...footer].join("\n\n");
}

/** The HTML part of the same content. */
export function mailHtml(content: MailContent): string {
  const link = (l: MailLink) => `<a href="${escapeHtml(l.href)}" style="color:#1d4ed8">${escapeHtml(l.text)}</a>`;
  const sections = (content.sections ?? [])
    .map(
      (section) =>
        `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(section.heading)}</h2><ul style="padding-left:20px;margin:0">${section.links
          .map((l) => `<li style="margin:4px 0">${link(l)}</li>`)
          .join("")}</ul>`,
    )
    .join("");
  return `<!doctype html><html lang="${escapeHtml(content.language)}"><head><meta charset="utf-8"><title>${escapeHtml(content.title)}</title></head><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:36rem;margin:0 auto;padding:16px">${content.paragraphs
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p)}</p>`)
    .join(
      "",
    )}${sections}<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 12px"><p style="font-size:13px;color:#64748b">${content.footer
    .map(link)
    .join(" · ")}</p></body></html>`;
}
