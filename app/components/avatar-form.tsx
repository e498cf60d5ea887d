import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Avatar } from "~/components/avatar";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { translateError } from "~/lib/form-errors";

// The avatar on the settings page. Without JavaScript it is a plain file field and the server crops
// the centre. With it, the avatar module (app/enhance/avatar.ts) opens a square cropper when a
// picture is chosen (drag it, or use the sliders to zoom and move) and sends the crop itself.

const VIEW = 240; // the cropper's side on screen, CSS pixels
const MAX_ZOOM = 4;

export function AvatarForm({ image, name, errors }: { image: string | null; name: string; errors?: string[] }) {
  const { t } = useTranslation();
  const slider = (label: string, field: string, min: number, max: number, step: number) => (
    <label className="flex max-w-60 items-center justify-between gap-2 text-sm">
      {label}
      <input type="range" name={field} form="no-form" min={min} max={max} step={step} defaultValue={min} className="w-36" />
    </label>
  );
  return (
    <div className="flex flex-col gap-4" data-testid="avatar-settings">
      <div className="flex items-center gap-3">
        <Avatar image={image} name={name} className="size-16" />
        {image ? (
          <Form method="post">
            <input type="hidden" name="intent" value="remove-avatar" />
            <Button type="submit" variant="outline" size="sm">
              {t("settings.avatarRemove")}
            </Button>
          </Form>
        ) : null}
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        data-testid="avatar-form"
        data-unreadable={translateError(t, "validation.avatarType")}
        className="max-w-md"
      >
        <input type="hidden" name="intent" value="avatar" />
        <Field
          id="avatar"
          name="avatar"
          type="file"
          accept="image/png,image/jpeg"
          required
          label={t("settings.avatarChoose")}
          hint={t("settings.avatarHelp")}
          errors={errors}
          className="h-auto py-1"
        />
        <div className="mb-4 flex flex-col gap-2" data-cropper hidden>
          <canvas
            width={VIEW}
            height={VIEW}
            style={{ width: VIEW, height: VIEW }}
            className="cursor-move touch-none rounded-md border border-slate-300"
            role="img"
            aria-label={t("settings.avatarPreview")}
            aria-describedby="avatar-move-hint"
          />
          <p id="avatar-move-hint" className="text-xs text-slate-500">
            {t("settings.avatarMove")}
          </p>
          {slider(t("settings.avatarZoom"), "zoom", 1, MAX_ZOOM, 0.1)}
          {slider(t("settings.avatarHorizontal"), "x", 0, 1, 0.05)}
          {slider(t("settings.avatarVertical"), "y", 0, 1, 0.05)}
        </div>
        <Button type="submit">{t("settings.avatarSave")}</Button>
      </Form>
    </div>
  );
}
