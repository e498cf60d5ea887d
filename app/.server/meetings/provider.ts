import { config } from "~/.server/config/config";
import { zoom } from "./zoom";

// One interface for the conferencing provider, chosen by configuration (docs/decisions/0022-meetings.md).

export interface ProviderMeeting {
  title: string;
  agenda: string;
  startsAt: number;
  durationMinutes: number;
  timeZone: string;
}

export interface ProvidedRoom {
  /** The provider's own id for the meeting (a room name, a meeting number). */
  providerId: string;
  joinUrl: string;
  /** The host's own link, where the provider has one; shown to the host only. */
  startUrl: string | null;
}

export interface MeetingProvider {
  name: string;
  /** The origin the join page may frame, and nothing wider; null when the room is not framed (a link only). */
  origin: string | null;
  create(meeting: ProviderMeeting): Promise<ProvidedRoom>;
  update(providerId: string, meeting: ProviderMeeting): Promise<void>;
  remove(providerId: string): Promise<void>;
}

/** Jitsi Meet needs no account: a room exists once someone opens its unguessable name. */
export function jitsi(origin: string): MeetingProvider {
  return {
    name: "jitsi",
    origin,
    async create() {
      const random = crypto.getRandomValues(new Uint8Array(24));
      // 120 random bits in letters and digits: unguessable, and safe in a URL path.
      const room = `ResearchCommons${Array.from(random, (b) => "abcdefghijklmnopqrstuvwxyz234567"[b % 32]).join("")}`;
      return { providerId: room, joinUrl: `${origin}/${room}`, startUrl: null };
    },
    async update() {},
    async remove() {},
  };
}

const ZOOM = { oauthUrl: "https://zoom.us", apiUrl: "https://api.zoom.us/v2" };

let current: { chosen: object; provider: MeetingProvider } | undefined;

/** The configured provider, one per isolate (Zoom's token is kept between requests). */
export function meetingProvider(): MeetingProvider {
  const chosen = config().meetings;
  if (current?.chosen !== chosen)
    current = { chosen, provider: chosen.provider === "zoom" ? zoom({ ...chosen, ...ZOOM }) : jitsi(chosen.origin) };
  return current.provider;
}
