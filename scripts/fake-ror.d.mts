export function rorRecords(): unknown[];
export function rorAnswer(url: URL): { status: number; body: unknown; slow?: boolean } | null;
export const HUGE_RECORD: string;
