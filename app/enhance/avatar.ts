// The avatar on the settings page (docs/decisions/0046). Without JavaScript it is a plain file field
// and the server crops the centre. With it, choosing a picture opens a square cropper (drag it, or
// use the sliders to zoom and move) and the crop itself is sent, as a PNG drawn in the browser.

import { fieldError } from "./parts/field-error";

const VIEW = 240; // the cropper's side on screen, CSS pixels
const OUTPUT = 512; // the crop's side as sent (the server scales it to its stored size)

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

const form = document.querySelector<HTMLFormElement>("form[data-testid=avatar-form]");
const field = form?.querySelector<HTMLInputElement>("input[type=file][name=avatar]");
const cropper = form?.querySelector<HTMLElement>("[data-cropper]");
const canvas = cropper?.querySelector("canvas");
const sliders = {
  zoom: cropper?.querySelector<HTMLInputElement>("input[name=zoom]"),
  x: cropper?.querySelector<HTMLInputElement>("input[name=x]"),
  y: cropper?.querySelector<HTMLInputElement>("input[name=y]"),
};
let crop: Crop | null = null;

/** The message beside the field when the chosen file is no PNG or JPG the browser can read. */
const unreadable = (shown: boolean) => field && fieldError(field, shown ? (form?.dataset.unreadable ?? "") : null);

function show(next: Crop | null) {
  crop?.picture.close(); // a picture no longer shown gives its memory back
  crop = next;
  if (!cropper || !canvas) return;
  cropper.hidden = !crop;
  cropper.dataset.testid = crop ? "cropper" : "";
  if (!crop) return;
  const scale = Math.ceil(window.devicePixelRatio || 1);
  canvas.width = VIEW * scale;
  canvas.height = VIEW * scale;
  for (const [name, slider] of Object.entries(sliders)) if (slider) slider.value = String(crop[name as keyof typeof sliders]);
  draw(canvas, crop);
}

const change = (to: Partial<Crop>) => {
  if (!crop || !canvas) return;
  crop = { ...crop, ...to };
  draw(canvas, crop);
};

field?.addEventListener("change", async () => {
  unreadable(false);
  const file = field.files?.[0];
  // The server's rule, judged as it judges it (by the bytes): PNG or JPG, whatever else the browser could draw.
  const allowed = file ? isPngOrJpeg(new Uint8Array(await file.slice(0, 8).arrayBuffer())) : false;
  // createImageBitmap turns the picture upright from its EXIF orientation, as browsers show it.
  const picture = file && allowed ? await createImageBitmap(file).catch(() => null) : null;
  show(picture && { picture, zoom: 1, x: 0.5, y: 0.5 });
  if (file && !picture) unreadable(true);
});

for (const [name, slider] of Object.entries(sliders)) slider?.addEventListener("input", () => change({ [name]: Number(slider.value) }));

let drag: { x: number; y: number } | null = null;
canvas?.addEventListener("pointerdown", (event) => {
  canvas.setPointerCapture(event.pointerId);
  drag = { x: event.clientX, y: event.clientY };
});
canvas?.addEventListener("pointermove", (event) => {
  if (!drag || !crop) return;
  // Screen pixels to the picture's, then to the room the square has to move in.
  const scale = sideOf(crop) / VIEW;
  const room = (size: number) => Math.max(size - (crop ? sideOf(crop) : 0), 1);
  change({
    x: within(crop.x + ((drag.x - event.clientX) * scale) / room(crop.picture.width)),
    y: within(crop.y + ((drag.y - event.clientY) * scale) / room(crop.picture.height)),
  });
  if (sliders.x && crop) sliders.x.value = String(crop.x);
  if (sliders.y && crop) sliders.y.value = String(crop.y);
  drag = { x: event.clientX, y: event.clientY };
});
for (const end of ["pointerup", "lostpointercapture"]) canvas?.addEventListener(end, () => (drag = null));

// The crop goes in the file field's place (one crop, sent once; the raw file never follows it).
form?.addEventListener("submit", (event) => {
  if (!crop || !field) return; // no cropper: the plain form goes as it is
  event.preventDefault();
  const out = document.createElement("canvas");
  out.width = OUTPUT;
  out.height = OUTPUT;
  draw(out, crop);
  out.toBlob((blob) => {
    if (!blob) return unreadable(true);
    const files = new DataTransfer();
    files.items.add(new File([blob], "avatar.png", { type: "image/png" }));
    field.files = files.files;
    show(null);
    form.submit();
  }, "image/png");
});
