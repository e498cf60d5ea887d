// node-webvtt (MIT): a WebVTT parser of its own, used by the tests to read what the platform serves.
declare module "node-webvtt" {
  const webvtt: {
    parse(
      input: string,
      options?: { strict?: boolean; meta?: boolean },
    ): { valid: boolean; cues: { start: number; end: number; text: string }[]; errors: unknown[] };
  };
  export default webvtt;
}
