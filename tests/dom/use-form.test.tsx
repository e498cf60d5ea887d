import { fireEvent, render, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Field } from "~/components/ui/field";
import { type FormReply, getFormProps, getInputProps, useForm } from "~/lib/use-form";
import { useReplyCleared } from "~/lib/use-reply-cleared";

// The pages' form hook over the server's reply, as a member meets it: what a refusal shows, where the
// focus goes, and what the form holds after the refusal is gone.
function Profile({ lastResult }: { lastResult?: FormReply }) {
  const [form, fields] = useForm<{ name: string; city: string; country: string; public: string }>({
    id: "profile",
    lastResult,
    defaultValue: { name: "Ada", city: "", country: "JP", public: true },
  });
  useReplyCleared(form, lastResult);
  return (
    <form {...getFormProps(form)}>
      <Field label="Name" hint="As shown on your page" errors={fields.name.errors} {...getInputProps(fields.name, { type: "text" })} />
      <Field label="City" errors={fields.city.errors} {...getInputProps(fields.city, { type: "text" })} />
      <select aria-label="Country" name="country" key={fields.country.key} defaultValue={String(fields.country.initialValue)}>
        <option value="JP">Japan</option>
        <option value="CN">China</option>
      </select>
      <input
        type="checkbox"
        aria-label="Public"
        name="public"
        key={fields.public.key}
        defaultChecked={fields.public.initialValue === "on"}
      />
    </form>
  );
}

const refusal: FormReply = {
  status: "error",
  initialValue: { name: "", city: "Kyoto", country: "CN" },
  error: { name: ["validation.inputEmpty"], city: ["validation.fieldTooLong|field=fields.address|max=10"] },
};

const textbox = (name: string) => screen.getByRole<HTMLInputElement>("textbox", { name });
// The select's value (the DOM's select type and testing-library's element type disagree on remove()).
const country = () => (screen.getByRole("combobox", { name: "Country" }) as unknown as { value: string }).value;

describe("the form hook", () => {
  // React's warnings (two controls under one key, for one) fail the test instead of scrolling past.
  const warnings = vi.spyOn(console, "error").mockImplementation(() => {});
  beforeEach(() => {
    warnings.mockClear();
    return i18next.changeLanguage("en");
  });
  afterEach(() => {
    expect(warnings.mock.calls.map((call: unknown[]) => String(call[0]))).toEqual([]);
  });

  it("shows every refused field's message at once, with the values that were posted", () => {
    render(<Profile lastResult={refusal} />);
    expect(textbox("Name").value).toBe("");
    expect(textbox("City").value).toBe("Kyoto");
    expect(country()).toBe("CN");
    expect(screen.getByTestId("error-name").textContent).toBe("Input Cannot Empty");
    expect(screen.getByTestId("error-city").textContent).toBe("Address can be at most 10 characters");
    expect(textbox("Name").getAttribute("aria-invalid")).toBe("true");
    // The message and the hint both describe the field.
    expect(textbox("Name").getAttribute("aria-describedby")).toBe("profile-name-error profile-name-hint");
    expect(textbox("City").getAttribute("aria-describedby")).toBe("profile-city-error");
  });

  it("starts from the defaults and marks nothing invalid without a refusal", () => {
    render(<Profile />);
    expect(textbox("Name").value).toBe("Ada");
    expect(textbox("Name").getAttribute("aria-invalid")).toBeNull();
    expect(textbox("Name").getAttribute("aria-describedby")).toBe("profile-name-hint");
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: "Public" }).checked).toBe(true);
  });

  it("moves the focus to the first refused field when a refusal arrives, keeping what was typed", () => {
    const { rerender } = render(<Profile />);
    fireEvent.change(textbox("City"), { target: { value: "Osaka" } });
    rerender(<Profile lastResult={{ ...refusal, error: { city: ["Too long"] } }} />);
    expect(document.activeElement).toBe(textbox("City"));
    expect(textbox("City").value).toBe("Osaka");
    expect(screen.getByTestId("error-city")).toBeTruthy();
  });

  it("goes back to the defaults, every kind of control, when the refusal is gone", () => {
    const { rerender } = render(<Profile lastResult={refusal} />);
    fireEvent.change(textbox("Name"), { target: { value: "Grace" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "Public" }));
    rerender(<Profile />);
    expect(textbox("Name").value).toBe("Ada");
    expect(textbox("City").value).toBe("");
    expect(country()).toBe("JP");
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: "Public" }).checked).toBe(true);
    expect(screen.queryByTestId("error-name")).toBeNull();
  });
});
