import { useTranslation } from "react-i18next";
import { CAPTION_LANGUAGES, languageName } from "~/lib/captions";
import { CAPTIONS_MAX_BYTES, CAPTIONS_MAX_CUES } from "~/lib/limits";
import { type FieldMetadata, getInputProps } from "~/lib/use-form";
import { Field } from "./ui/field";

/**
 * A caption file and its language (decision 0043), on the upload form and a video's own page: the
 * language typed as a tag, with en, ja and zh offered (any BCP 47 tag is taken).
 */
export function CaptionFields({ lang, file, required }: { lang: FieldMetadata; file: FieldMetadata; required?: boolean }) {
  const { t, i18n } = useTranslation();
  const list = `${lang.id}-languages`;
  return (
    <>
      <Field
        label={t("content.captionsLanguage")}
        hint={t("content.captionsLanguageHint")}
        errors={lang.errors}
        {...getInputProps(lang, { type: "text" })}
        list={list}
        autoComplete="off"
        spellCheck={false}
        required={required}
      />
      <datalist id={list}>
        {CAPTION_LANGUAGES.map((tag) => (
          <option key={tag} value={tag}>
            {languageName(tag, i18n.language)}
          </option>
        ))}
      </datalist>
      <Field
        label={t("content.captionsFile")}
        hint={t("content.captionsFileHint", {
          mb: CAPTIONS_MAX_BYTES / 1024 / 1024,
          cues: CAPTIONS_MAX_CUES.toLocaleString(i18n.language),
        })}
        accept="text/vtt,.vtt"
        errors={file.errors}
        {...getInputProps(file, { type: "file" })}
        required={required}
      />
    </>
  );
}
