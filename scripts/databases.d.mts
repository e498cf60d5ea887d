// Types for what the TypeScript code takes from databases.mjs.
export type MigrationKind = "core" | "stats" | "text";
export const MIGRATION_DIRS: Record<MigrationKind, string>;
export function databaseKind(binding: string): MigrationKind | null;
export function databaseBindings(env: object): string[];
