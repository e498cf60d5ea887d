// What the server hands the pages and what the live sockets carry: the shapes components and client
// hooks use, kept out of the server modules (app/.server) that the client build may never import.

/** A one-time notification that survives a redirect, so it shows without JavaScript too. */
export interface Flash {
  id: string;
  kind: "success" | "error" | "info";
  /** A translation key under notify.*, validation.*, content.* or safety.* */
  key: string;
}

/** The signed-in member as every page's shell shows them (root's loader); null when signed out. */
export interface ShellUser {
  id: number;
  nickName: string;
  image: string | null;
}

/** What components read of root's loader data (they do not import root.tsx, which renders them). */
export interface RootShellData {
  user: ShellUser | null;
}

export interface MemberSummary {
  id: number;
  nick_name: string;
  account_type: 1 | 2;
  image: string | null;
}

export interface FeedItem {
  id: number;
  kind: "document" | "video";
  sdg: number;
  title: string;
  summary: string;
  views: number;
  likes: number;
  created_at: number;
  owner_id: number;
  owner_name: string;
}

export interface RankedMember {
  rank: number;
  user_id: number;
  nick_name: string;
  account_type: 1 | 2;
  score: number;
}

export interface Message {
  id: number;
  conversation_id: number;
  sender_id: number;
  client_id: string;
  body: string;
  created_at: number;
}

/** What a live socket sends a page. */
export type LiveEvent =
  | { type: "message"; message: Message }
  | { type: "ack"; message: Message }
  | { type: "sync"; messages: Message[]; has_more: boolean }
  | { type: "error"; client_id?: string; error: string }
  | { type: "unread"; total: number; notifications: number };
