// An organisation of the Research Organization Registry, as pages show it (docs/decisions/0052).

/** An organisation as members pick it. */
export interface Organisation {
  id: string;
  /** Its name as the registry shows it. */
  name: string;
  /** Its name in the reader's language, when the registry has one that differs. */
  label: string | null;
  acronym: string | null;
  country: string | null;
  status: "active" | "inactive" | "withdrawn";
  /** What it became, for one no longer active. */
  successors: { id: string; label: string }[];
}
