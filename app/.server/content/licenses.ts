import spdx from "spdx-license-list";
import { ALL_RIGHTS_RESERVED, COMMON_LICENSES, type LicenseInfo } from "~/lib/licenses";

// The licences an item may carry: the SPDX list from the spdx-license-list package (maintained with
// SPDX's own), plus all rights reserved. The forms offer the common ones and take any other by its
// identifier (decision 0047); the API takes any SPDX identifier.

const list = spdx as Record<string, { name: string; url: string; osiApproved: boolean }>;

/** A licence's name and link; null for none (not specified). */
export function licenseInfo(id: string | null): LicenseInfo | null {
  if (!id) return null;
  if (id === ALL_RIGHTS_RESERVED) return { id, name: null, url: null };
  const found = list[id];
  return found ? { id, name: found.name, url: found.url } : { id, name: id, url: null };
}

let common: LicenseInfo[] | undefined;

/** What the forms' select offers: the common licences, and the one the item has when it is another. */
export function licenseOptions(current: string | null = null) {
  common ??= COMMON_LICENSES.map((id) => licenseInfo(id) as LicenseInfo);
  const other = current && !(COMMON_LICENSES as readonly string[]).includes(current) ? licenseInfo(current) : null;
  return { common, current: other };
}
