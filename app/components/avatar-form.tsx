import { type FormEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation, useSubmit } from "react-router";
import { Avatar } from "~/components/avatar";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";

// The avatar on the settings page. Without JavaScript it is a plain file field and the server crops
// the centre. With it, choosing a picture opens a square cropper (drag it, or use the sliders to
// zoom and move) and the crop itself is sent, as a PNG drawn in the browser.

const VIEW = 240; // the cropper's side on screen, CSS pixels
const OUTPUT = 512; // the crop's side as sent (the server scales it to its stored size)
const MAX_ZOOM = 4;

interface Crop {
  picture: ImageBitmap;
  zoom: number;
  /** Where the square sits within the room it has to move, 0 (left, top) to 1 (right, bottom). */
  x: number;
  y: number;
}

const sideOf = ({ picture, zoom }: Crop) => Math.min(picture.width, picture.height) / zoom;
const within = (value: number) => Math.min(Math.max(value, 0), 1);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PNG signature or a JPEG's start of image: the types the server takes for an avatar (it judges the rest). */
const isPngOrJpeg = (head: Uint8Array) =>
  PNG.every((byte, i) => head[i] === byte) || (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff);

function draw(canvas: HTMLCanvasElement, crop: Crop) {
  const side = sideOf(crop);
  const left = crop.x * (crop.picture.width - side);
  const top = crop.y * (crop.picture.height - side);
  canvas.getContext("2d")?.drawImage(crop.picture, left, top, side, side, 0, 0, canvas.width, canvas.height);
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
  // A picture no longer shown gives its memory back.
  const picture = crop?.picture;
  useEffect(() => () => picture?.close(), [picture]);

  async function choose(file: File | undefined) {
    setUnreadable(false);
    // The server's rule, judged as it judges it (by the bytes): PNG or JPG, whatever else the browser could draw.
    const allowed = file ? isPngOrJpeg(new Uint8Array(await file.slice(0, 8).arrayBuffer())) : false;
    // createImageBitmap turns the picture upright from its EXIF orientation, as browsers show it.
    const picture = file && allowed ? await createImageBitmap(file).catch(() => null) : null;
    setCrop(picture && { picture, zoom: 1, x: 0.5, y: 0.5 });
    if (file && !picture) setUnreadable(true);
  }

  const change = (to: Partial<Crop>) => setCrop((c) => c && { ...c, ...to });

  function onPointerMove(event: PointerEvent) {
    if (!drag.current || !crop) return;
    // Screen pixels to the picture's, then to the room the square has to move in.
    const scale = sideOf(crop) / VIEW;
    const room = (size: number) => Math.max(size - sideOf(crop), 1);
    change({
      x: within(crop.x + ((drag.current.x - event.clientX) * scale) / room(crop.picture.width)),
      y: within(crop.y + ((drag.current.y - event.clientY) * scale) / room(crop.picture.height)),
    });
    drag.current = { x: event.clientX, y: event.clientY };
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!crop) return; // no cropper: the plain form goes as it is
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const canvas = document.createElement("canvas");
    canvas.width = OUTPUT;
    canvas.height = OUTPUT;
    draw(canvas, crop);
    setCrop(null); // one crop, sent once; the field is emptied so the raw file never follows it
    element.reset();
    canvas.toBlob((blob) => {
      if (!blob) return setUnreadable(true);
      form.set("avatar", blob, "avatar.png");
      submit(form, { method: "post", encType: "multipart/form-data" });
    }, "image/png");
  }

  const slider = (label: string, value: number, min: number, max: number, step: number, set: (value: number) => void) => (
    <label className="flex max-w-60 items-center justify-between gap-2 text-sm">
      {label}
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => set(Number(event.currentTarget.value))}
        className="w-36"
      />
    </label>
  );

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
              width={VIEW * Math.ceil(window.devicePixelRatio || 1)}
              height={VIEW * Math.ceil(window.devicePixelRatio || 1)}
              style={{ width: VIEW, height: VIEW }}
              className="cursor-move touch-none rounded-md border border-slate-300"
              role="img"
              aria-label={t("settings.avatarPreview")}
              aria-describedby="avatar-move-hint"
              onPointerDown={(event) => {
                event.currentTarget.setPointerCapture(event.pointerId);
                drag.current = { x: event.clientX, y: event.clientY };
              }}
              onPointerMove={onPointerMove}
              onPointerUp={() => {
                drag.current = null;
              }}
              onLostPointerCapture={() => {
                drag.current = null;
              }}
            />
            <p id="avatar-move-hint" className="text-xs text-slate-500">
              {t("settings.avatarMove")}
            </p>
            {slider(t("settings.avatarZoom"), crop.zoom, 1, MAX_ZOOM, 0.1, (zoom) => change({ zoom }))}
            {slider(t("settings.avatarHorizontal"), crop.x, 0, 1, 0.05, (x) => change({ x }))}
            {slider(t("settings.avatarVertical"), crop.y, 0, 1, 0.05, (y) => change({ y }))}
          </div>
        ) : null}
        <Button type="submit" disabled={busy}>
          {t("settings.avatarSave")}
        </Button>
      </Form>
    </div>
  );
}
