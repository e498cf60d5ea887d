/** Text made safe inside HTML markup and quoted attributes (for HTML built as a string: mail, bare error pages). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
