import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useEffect, useRef, useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { clearDrafts, keepDrafts } from "~/lib/drafts";

// Cached views (decision 0044): a view's forms keep what was typed for the tab, come back with it,
// and let it go when sent, on a noCache page and at signing out.

function View({ address, enabled = true }: { address: string; enabled?: boolean }) {
  const main = useRef<HTMLElement>(null);
  // As the shell module does on a page whose main names the member (never on a noCache page).
  useEffect(() => (main.current && enabled ? keepDrafts(main.current, address) : undefined), [address, enabled]);
  // A field React holds in state, as some forms do: it must hear of what is put back.
  const [tags, setTags] = useState("");
  return (
    <main ref={main}>
      <form onSubmit={(event) => event.preventDefault()}>
        <input aria-label="Title" name="title" defaultValue="" />
        <textarea aria-label="Summary" name="summary" defaultValue="" />
        <input aria-label="Tags" name="tags" value={tags} onChange={(event) => setTags(event.target.value)} />
        <output data-testid="tags-state">{tags}</output>
        <select aria-label="Goal" name="sdg" defaultValue="1">
          <option value="1">1</option>
          <option value="6">6</option>
        </select>
        <input type="checkbox" aria-label="Public" name="publicize" value="1" defaultChecked />
        <input type="password" aria-label="Password" name="password" defaultValue="" />
        <input type="hidden" name="client_key" defaultValue="key-1" />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
/** The drafts' module loads at the first typing: what was typed is kept once it has. */
const kept = (text: string) => waitFor(() => expect(JSON.stringify({ ...sessionStorage })).toContain(text));
const shown = (label: string, value: string) => waitFor(() => expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe(value));

describe("drafts of a visited view", () => {
  beforeEach(() => sessionStorage.clear());

  it("come back with the view, into state-held fields too, but never a password", async () => {
    const first = render(<View address="1:/upload" />);
    type("Title", "Wells of the Sahel");
    type("Summary", "Half a summary");
    fireEvent.change(screen.getByLabelText("Tags"), { target: { value: "water" } });
    fireEvent.change(screen.getByLabelText("Goal"), { target: { value: "6" } });
    fireEvent.click(screen.getByLabelText("Public"));
    type("Password", "secret-words");
    await kept("Half a summary");
    first.unmount();
    render(<View address="1:/upload" />);
    await shown("Title", "Wells of the Sahel");
    expect((screen.getByLabelText("Summary") as HTMLTextAreaElement).value).toBe("Half a summary");
    expect(screen.getByTestId("tags-state").textContent).toBe("water");
    expect((screen.getByLabelText("Goal") as unknown as HTMLSelectElement).value).toBe("6");
    expect((screen.getByLabelText("Public") as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("");
    expect(JSON.stringify({ ...sessionStorage })).not.toContain("secret-words");
  });

  it("are dropped when the form is sent, kept per view, never on a noCache page, and gone at signing out", async () => {
    const first = render(<View address="1:/upload" />);
    type("Title", "Sent at last");
    await kept("Sent at last");
    fireEvent.submit(screen.getByRole("button", { name: "Send" }).closest("form") as HTMLFormElement);
    first.unmount();
    const again = render(<View address="1:/upload" />);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("");
    type("Title", "Kept for upload");
    await kept("Kept for upload");
    again.unmount();
    const other = render(<View address="1:/meetings" />);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("");
    other.unmount();
    const secret = render(<View address="1:/personal/Setting" enabled={false} />);
    type("Title", "Not kept");
    secret.unmount();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain("Not kept");
    clearDrafts();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain("Kept for upload");
    render(<View address="1:/upload" />);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("");
  });
});
