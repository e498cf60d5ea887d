import { z } from "zod";
import { captionFileText, captionsRead, removeCaptions, saveOwnerCaptions } from "~/.server/content/captions";
import { findContent } from "~/.server/content/content";
import { readOne } from "~/.server/reads";
import { captionFileAnswer } from "~/.server/web/files/member-files";
import { captionLang } from "~/lib/captions";
import {
  CAPTION_CUES_PER_MINUTE,
  CAPTIONS_MAX_BYTES,
  CAPTIONS_MAX_CUES,
  CAPTIONS_MAX_LANGUAGES,
  CAPTIONS_MEMBER_MAX_MB,
} from "~/lib/limits";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// A video's captions (decision 0043), over the service the detail page uses.

const caption = z.object({
  lang: z.string().describe("a BCP 47 language tag"),
  source: z.enum(["owner", "automatic"]).describe("automatic: made by the speech-to-text provider, until the owner replaces them"),
  cue_count: z.int(),
  duration_ms: z.int().describe("the end of the last cue"),
  updated_at: z.int().describe("ms since the epoch"),
  file_url: z.string().describe("the captions as WebVTT"),
});

const withUrl = (id: number) => (info: Omit<z.infer<typeof caption>, "file_url">) => ({
  ...info,
  file_url: `/api/contents/${id}/captions/${info.lang}.vtt`,
});

/** The item when the member is its owner and it is a video; a language tag in its canonical case. */
async function ownVideo(id: string | undefined, userId: number) {
  const item = await findContent(Number(id), userId);
  return item?.owner_id === userId && item.kind === "video" ? item : null;
}

export const captionRoutes = [
  forMember({
    method: "GET",
    path: "/contents/{id}/captions",
    summary: "A video's captions, one per language",
    answers: { 200: z.object({ captions: z.array(caption) }), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      return ok({ captions: (await readOne(captionsRead(item.id))).map(withUrl(item.id)) });
    },
  }),
  forMember({
    method: "PUT",
    path: "/contents/{id}/captions/{lang}",
    summary: `The owner sets a video's captions in a language from a WebVTT file (the body; ${CAPTIONS_MAX_BYTES / 1024 / 1024} MB and ${CAPTIONS_MAX_CUES} cues at most), replacing that language's`,
    description: `The file is read by a WebVTT parser: one that does not parse is refused with its line. Cue text is kept without markup, NFC; control and text-direction characters are refused. A video has captions in at most ${CAPTIONS_MAX_LANGUAGES} languages; a cue may not start after the video ends, and a minute of video holds at most ${CAPTION_CUES_PER_MINUTE} cues. A member's captions take at most ${CAPTIONS_MEMBER_MAX_MB} MB in all (413 past it, with the old set kept). The same file again replaces them with the same.`,
    bytesIn: ["text/vtt"],
    answers: { 200: z.object({ caption }), 400: REFUSAL, 404: REFUSAL, 409: REFUSAL, 413: REFUSAL },
    handle: async ({ ctx, member, params: [id, tag] }) => {
      const item = await ownVideo(id, member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const lang = await saveOwnerCaptions(item.id, tag ?? "", new Uint8Array(await ctx.request.arrayBuffer()), ctx.now);
      const saved = (await readOne(captionsRead(item.id))).find((c) => c.lang === lang);
      if (!saved) return notFound(ctx.language, "item");
      return ok({ caption: withUrl(item.id)(saved) });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/contents/{id}/captions/{lang}",
    summary: "The owner removes a video's captions in a language (again: nothing more happens)",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id, tag] }) => {
      const item = await ownVideo(id, member.user.id);
      const lang = captionLang(tag ?? "");
      if (!item || !lang) return notFound(ctx.language, "item");
      await removeCaptions(item.id, lang);
      return ok(null);
    },
  }),
  forMember({
    method: "GET",
    path: "/contents/{id}/captions/{lang}.vtt",
    summary: "A video's captions in a language as WebVTT",
    answers: { 200: { bytes: "The captions", types: ["text/vtt"] }, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id, tag] }) => {
      const item = await findContent(Number(id), member.user.id);
      const lang = captionLang(tag ?? "");
      const vtt = item && lang ? await captionFileText(item.id, lang) : null;
      return item && lang && vtt !== null ? captionFileAnswer(item.id, lang, vtt) : notFound(ctx.language, "item");
    },
  }),
];
