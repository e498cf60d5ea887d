import { render, screen } from "@testing-library/react";
import i18next from "i18next";
import { createRoutesStub, data } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { RouteError } from "~/components/route-error";

function ErrorBoundary({ error }: { error: unknown }) {
  return <RouteError error={error} />;
}

function Thrower(): never {
  throw new Error("boom");
}

function Nothing() {
  return null;
}

function notFound(): never {
  throw data(null, { status: 404 });
}

describe("the root error boundary", () => {
  it("shows a translated error page instead of a blank screen", async () => {
    await i18next.changeLanguage("zh");
    // React reports the thrown error on the console: expected here, so it is caught and checked, not printed.
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    const Stub = createRoutesStub([{ path: "/", Component: Thrower, ErrorBoundary }]);
    render(<Stub />);
    expect(await screen.findByRole("heading", { name: "出错了" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "返回首页" }).getAttribute("href")).toBe("/home");
    expect(reported.mock.calls.flat().some((value) => value instanceof Error && value.message === "boom")).toBe(true);
    reported.mockRestore();
  });

  it("shows the 404 page for a thrown 404", async () => {
    const Stub = createRoutesStub([{ path: "/", Component: Nothing, loader: notFound, HydrateFallback: Nothing, ErrorBoundary }]);
    render(<Stub />);
    expect(await screen.findByRole("heading", { name: "This page does not exist" })).toBeTruthy();
  });
});
