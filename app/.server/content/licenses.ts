import spdx from "spdx-license-list";
import { ALL_RIGHTS_RESERVED, COMMON_LICENSES, type LicenseInfo } from "~/lib/licenses";

// The licences an item may carry: the SPDX list from the spdx-license-list package (maintained with
// SPDX's own), plus all rights reserved. The forms offer the common ones first, then every
// OSI-approved and Creative Commons licence by name; the API takes any SPDX identifier.

const list = spdx as Record<string, { name: string; url: string; osiApproved: boolean }>;

/** A licence's name and link; null for none (not specified). */
export function licenseInfo(id: string | null): LicenseInfo | null {
  if (!id) return null;
  if (id === ALL_RIGHTS_RESERVED) return { id, name: null, url: null };
  const found = list[id];
  return found ? { id, name: found.name, url: found.url } : { id, name: id, url: null };
}

let options: { common: LicenseInfo[]; other: LicenseInfo[] } | undefined;

/** What the forms' select offers: the common licences, then the rest by name. */
export function licenseOptions() {
  options ??= {
    common: COMMON_LICENSES.map((id) => licenseInfo(id) as LicenseInfo),
    other: Object.entries(list)
      .filter(([id, l]) => (l.osiApproved || id.startsWith("CC")) && !(COMMON_LICENSES as readonly string[]).includes(id))
      .map(([id, l]) => ({ id, name: l.name, url: l.url }))
      .sort((a, b) => a.name.localeCompare(b.name, "en")),
  };
  return options;
}
