import { render, screen } from "@testing-library/react";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { FlashToast } from "~/components/toast";

// A flash is read once: the page's next revalidation (a live update) answers none. The toast it
// showed stays for its 5 s instead of vanishing then (the browser suite missed "Deleted" that way).

describe("the flash toast", () => {
  it("keeps showing when a revalidation brings no flash, and shows the next one", async () => {
    await i18next.changeLanguage("en");
    const first = { id: "a", kind: "success" as const, key: "content.deleted" };
    const { rerender } = render(<FlashToast flash={first} />);
    expect(screen.getByTestId("toast").textContent).toBe("Deleted");
    rerender(<FlashToast flash={null} />);
    expect(screen.getByTestId("toast").textContent).toBe("Deleted");
    rerender(<FlashToast flash={{ id: "b", kind: "success", key: "notify.updateSuccess" }} />);
    expect(screen.getByTestId("toast").textContent).toBe("Update Success");
  });
});
