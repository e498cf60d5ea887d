// Licences (docs/decisions/0042-versions-and-licences.md): SPDX identifiers, the common ones first.
// The full list (names, links) is the server's (app/.server/content/licenses.ts, from the
// spdx-license-list package); pages get the options they show from their loader.

/** "All rights reserved" is no SPDX licence: SPDX's convention for one of our own. */
export const ALL_RIGHTS_RESERVED = "LicenseRef-All-Rights-Reserved";

/** New uploads start with this one. */
export const DEFAULT_LICENSE = "CC-BY-4.0";

/** What the forms offer, in this order (decision 0047); any other SPDX licence is typed by its identifier. */
export const COMMON_LICENSES = [
  "CC-BY-4.0",
  "CC-BY-SA-4.0",
  "CC-BY-NC-4.0",
  "CC-BY-NC-SA-4.0",
  "CC-BY-ND-4.0",
  "CC-BY-NC-ND-4.0",
  "CC0-1.0",
  "MIT",
  "Apache-2.0",
  "BSD-3-Clause",
  "GPL-3.0-or-later",
  ALL_RIGHTS_RESERVED,
] as const;

/** The forms' choice "Another licence": its SPDX identifier is typed in `license_other`. */
export const OTHER_LICENSE = "other";

/**
 * The licence a form chose: the select's, or the identifier typed beside it when it says "Another
 * licence" (left as "other", which no list has, when nothing was typed: refused, not ignored).
 */
export function chosenLicense(license: unknown, other: unknown): unknown {
  return license === OTHER_LICENSE ? String(other ?? "").trim() || OTHER_LICENSE : license;
}

/** A licence as the pages show it: its id, its name (null for all rights reserved, which is translated) and its text's address. */
export interface LicenseInfo {
  id: string;
  name: string | null;
  url: string | null;
}

/** An identifier's shape (the server checks it is on the list). */
export const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9.+-]{0,63}$/;
