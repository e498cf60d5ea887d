import { Form } from "react-router";

/** The × on a chip of one's own (a tag, an interest): a form of its own, so it works without JavaScript. */
export function RemoveChip({
  intent,
  name,
  value,
  label,
  hover,
}: {
  intent: string;
  name: string;
  value: number;
  label: string;
  /** How much the × darkens under the pointer, against the chip's colour. */
  hover: "hover:bg-black/10" | "hover:bg-black/20";
}) {
  return (
    <Form method="post" className="contents">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={value} />
      <button type="submit" className={`-my-1 inline-flex size-6 items-center justify-center rounded-full ${hover}`} aria-label={label}>
        ×
      </button>
    </Form>
  );
}
