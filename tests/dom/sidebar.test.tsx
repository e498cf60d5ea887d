import { render, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { createRoutesStub, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { Sidebar } from "~/components/sidebar";
import { buildMenu } from "~/lib/menu";
import type { RouteMeta } from "~/lib/route-meta";

type SidebarProps = Parameters<typeof Sidebar>[0];

function SidebarRoute() {
  return <Sidebar {...useLoaderData<SidebarProps>()} />;
}

function HydrateFallback() {
  return null;
}

async function renderSidebar(props: SidebarProps, path = "/home") {
  const Stub = createRoutesStub([{ path: "*", Component: SidebarRoute, loader: () => props, HydrateFallback }]);
  render(<Stub initialEntries={[path]} />);
  await screen.findByTestId("sidebar");
}

const menuLinks = () => within(screen.getByRole("navigation")).getAllByRole("link");

describe("Sidebar", () => {
  it("shows the spec's menu in order and leaves hidden routes out", async () => {
    await renderSidebar({ unread: 0, activePath: "/home" });
    expect(menuLinks().map((a) => a.textContent)).toEqual(["Home", "Discovery", "Retrieval", "Meeting", "Message", "Upload"]);
    expect(screen.queryByText("Personal")).toBeNull();
    expect(screen.queryByText("Detail")).toBeNull();
  });

  it("marks the active entry, including for a hidden page through its activeMenu", async () => {
    await renderSidebar({ unread: 0, activePath: "/retrieval" }, "/retrieval/detail");
    expect(screen.getByRole("link", { name: /Retrieval/ }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("link", { name: /Home/ }).getAttribute("aria-current")).toBeNull();
  });

  it("collapses a single visible child into its parent and opens external links in a new tab", async () => {
    const routes: RouteMeta[] = [
      { path: "/docs", title: "discovery", icon: "discovery", children: [{ path: "/docs/only", title: "upload" }] },
      { path: "/hidden", title: "message", hidden: true },
      { path: "https://example.org/help", title: "retrieval", icon: "link" },
      {
        path: "/group",
        title: "personal",
        children: [
          { path: "/group/a", title: "setting" },
          { path: "/group/b", title: "ranking" },
        ],
      },
    ];
    await renderSidebar({ unread: 0, items: buildMenu(routes) });
    const single = screen.getByRole("link", { name: /Upload/ });
    expect(single.getAttribute("href")).toBe("/docs/only");
    expect(screen.queryByText("Discovery")).toBeNull();
    expect(screen.queryByText("Message")).toBeNull();
    const external = screen.getByRole("link", { name: /Retrieval/ });
    expect(external.getAttribute("target")).toBe("_blank");
    expect(external.getAttribute("rel")).toContain("noopener");
    expect(screen.getByText("Personal")).toBeTruthy();
    expect(screen.getByRole("link", { name: /Settings/ }).getAttribute("href")).toBe("/group/a");
  });

  it.each([
    [0, null],
    [7, "7"],
    [99, "99"],
    [100, "99+"],
    [12345, "99+"],
  ])("shows %i unread messages as %s on the Message entry", async (unread, shown) => {
    await renderSidebar({ unread });
    // Always there for the shell module to update live; hidden at zero.
    const badge = screen.getByTestId("unread-badge");
    expect(badge.hidden ? null : badge.textContent).toBe(shown);
    expect(badge.closest("a")?.getAttribute("href")).toBe("/message");
  });

  it("translates the menu", async () => {
    await i18next.changeLanguage("ja");
    await renderSidebar({ unread: 0 });
    expect(menuLinks().map((a) => a.textContent)).toEqual(["ホーム", "発見", "検索", "ミーティング", "メッセージ", "アップロード"]);
  });
});
