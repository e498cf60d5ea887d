// One interface for the conferencing providers (jitsi in provider.ts, zoom.ts), whichever is configured.

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
}

export interface MeetingProvider {
  name: string;
  /** The origin the join page may frame, and nothing wider; null when the room is not framed (a link only). */
  origin: string | null;
  create(meeting: ProviderMeeting): Promise<ProvidedRoom>;
  update(providerId: string, meeting: ProviderMeeting): Promise<void>;
  remove(providerId: string): Promise<void>;
  /**
   * The host's own link, where the provider has one, asked for when the host opens the meeting (it
   * signs its holder in as the host and expires within hours, so it is never stored).
   */
  hostLink(providerId: string): Promise<string | null>;
}
