import { type FormEvent, type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation, useSubmit } from "react-router";
import { Avatar } from "~/components/avatar";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";

// The avatar on the settings page. Without JavaScript it is a plain file field and the server crops
// the centre. With it, choosing a picture opens a square cropper (drag or arrow keys to move, a
// slider to zoom) and the crop itself is sent, as a PNG drawn in the browser.

const VIEW = 240; // the cropper's side on screen, CSS pixels
const OUTPUT = 512; // the crop's side as sent (the server scales it to its stored size)
const MAX_ZOOM = 4;

interface Crop {
  picture: ImageBitmap;
  zoom: number;
  /** The crop's centre, in the picture's pixels. */
  x: number;
  y: number;
}

const sideOf = ({ picture, zoom }: Crop) => Math.min(picture.width, picture.height) / zoom;

/** The centre kept where the square stays inside the picture. */
function clamped(crop: Crop): Crop {
  const half = sideOf(crop) / 2;
  const within = (value: number, size: number) => Math.min(Math.max(value, half), size - half);
  return { ...crop, x: within(crop.x, crop.picture.width), y: within(crop.y, crop.picture.height) };
}

function draw(canvas: HTMLCanvasElement, crop: Crop) {
  const side = sideOf(crop);
  canvas.getContext("2d")?.drawImage(crop.picture, crop.x - side / 2, crop.y - side / 2, side, side, 0, 0, canvas.width, canvas.height);
}

export function AvatarForm({ image, name, errors }: { image: string | null; name: string; errors?: string[] }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const [crop, setCrop] = useState<Crop | null>(null);
  const [unreadable, setUnreadable] = useState(false);
  const preview = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    if (crop && preview.current) draw(preview.current, crop);
  }, [crop]);

  async function choose(file: File | undefined) {
    setUnreadable(false);
    if (!file) return setCrop(null);
    // createImageBitmap turns the picture upright from its EXIF orientation, as browsers show it.
    const picture = await createImageBitmap(file).catch(() => null);
    if (!picture) {
      setCrop(null);
      return setUnreadable(true);
    }
    setCrop({ picture, zoom: 1, x: picture.width / 2, y: picture.height / 2 });
  }

  const move = (dx: number, dy: number) => setCrop((c) => c && clamped({ ...c, x: c.x + dx, y: c.y + dy }));

  function onPointerMove(event: PointerEvent) {
    if (!drag.current || !crop) return;
    const scale = sideOf(crop) / VIEW;
    move((drag.current.x - event.clientX) * scale, (drag.current.y - event.clientY) * scale);
    drag.current = { x: event.clientX, y: event.clientY };
  }

  function onKeyDown(event: KeyboardEvent) {
    if (!crop) return;
    const step = sideOf(crop) / 20;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const by = moves[event.key];
    if (!by) return;
    event.preventDefault();
    move(...by);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!crop) return; // no cropper: the plain form goes as it is
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const canvas = document.createElement("canvas");
    canvas.width = OUTPUT;
    canvas.height = OUTPUT;
    draw(canvas, crop);
    canvas.toBlob((blob) => {
      if (!blob) return setUnreadable(true);
      form.set("avatar", blob, "avatar.png");
      submit(form, { method: "post", encType: "multipart/form-data" });
      setCrop(null);
    }, "image/png");
  }

  const shown = unreadable ? ["validation.avatarType"] : errors;
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
      <Form method="post" encType="multipart/form-data" onSubmit={onSubmit} data-testid="avatar-form" className="max-w-md">
        <input type="hidden" name="intent" value="avatar" />
        <Field
          id="avatar"
          name="avatar"
          type="file"
          accept="image/png,image/jpeg"
          required
          label={t("settings.avatarChoose")}
          hint={t("settings.avatarHelp")}
          errors={shown}
          className="h-auto py-1"
          onChange={(event) => choose(event.currentTarget.files?.[0])}
        />
        {crop ? (
          <div className="mb-4 flex flex-col gap-2" data-testid="cropper">
            <canvas
              ref={preview}
              width={VIEW}
              height={VIEW}
              style={{ width: VIEW, height: VIEW }}
              className="cursor-move touch-none rounded-md border border-slate-300 focus-visible:ring-2 focus-visible:ring-brand/30 focus-visible:outline-none"
              tabIndex={0}
              role="img"
              aria-label={t("settings.avatarMove")}
              onPointerDown={(event) => {
                event.currentTarget.setPointerCapture(event.pointerId);
                drag.current = { x: event.clientX, y: event.clientY };
              }}
              onPointerMove={onPointerMove}
              onPointerUp={() => {
                drag.current = null;
              }}
              onKeyDown={onKeyDown}
            />
            <p className="text-xs text-slate-500">{t("settings.avatarMove")}</p>
            <label className="flex max-w-60 items-center gap-2 text-sm">
              {t("settings.avatarZoom")}
              <input
                type="range"
                min={1}
                max={MAX_ZOOM}
                step={0.01}
                value={crop.zoom}
                onChange={(event) => {
                  const zoom = Number(event.currentTarget.value);
                  setCrop((c) => c && clamped({ ...c, zoom }));
                }}
                className="flex-1"
                data-testid="avatar-zoom"
              />
            </label>
          </div>
        ) : null}
        <Button type="submit" disabled={busy}>
          {t("settings.avatarSave")}
        </Button>
      </Form>
    </div>
  );
}
