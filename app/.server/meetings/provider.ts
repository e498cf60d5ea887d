import { config } from "~/.server/config/config";
import type { MeetingProvider } from "./provider-interface";
import { zoom } from "./zoom";

// The conferencing provider, chosen by configuration (docs/decisions/0022-meetings.md).

/** Jitsi Meet needs no account: a room exists once someone opens its unguessable name. */
export function jitsi(origin: string): MeetingProvider {
  return {
    name: "jitsi",
    origin,
    async create() {
      const random = crypto.getRandomValues(new Uint8Array(24));
      // 120 random bits in letters and digits: unguessable, and safe in a URL path.
      const room = `ResearchCommons${Array.from(random, (b) => "abcdefghijklmnopqrstuvwxyz234567"[b % 32]).join("")}`;
      return { providerId: room, joinUrl: `${origin}/${room}` };
    },
    async update() {},
    async remove() {},
    async hostLink() {
      return null;
    },
  };
}

const ZOOM = { oauthUrl: "https://zoom.us", apiUrl: "https://api.zoom.us/v2" };

let current: { chosen: object; providers: Map<string, MeetingProvider> } | undefined;

/**
 * A provider by name, one per isolate (Zoom's token is kept between requests): the configured one
 * for new meetings, or the one a meeting was made on (it stays there when the configuration changes).
 */
export function meetingProvider(name?: string): MeetingProvider {
  const chosen = config().meetings;
  if (current?.chosen !== chosen) current = { chosen, providers: new Map() };
  const wanted = name ?? chosen.provider;
  let provider = current.providers.get(wanted);
  if (!provider) {
    if (wanted === "zoom" && !chosen.zoom) throw new Error("a Zoom meeting, but Zoom is not configured");
    provider = wanted === "zoom" && chosen.zoom ? zoom({ ...chosen.zoom, ...ZOOM }) : jitsi(chosen.jitsiOrigin);
    current.providers.set(wanted, provider);
  }
  return provider;
}
