import { describe, expect, it } from "vitest";
import {
  addView,
  afterClose,
  closeAllViews,
  closeOtherViews,
  closeView,
  parseViews,
  serializeViews,
  type VisitedView,
} from "~/lib/visited-views";

const paths = (views: VisitedView[]) => views.map((v) => v.fullPath);
const visit = (...fullPaths: string[]) => fullPaths.reduce((views, p) => addView(views, p), parseViews(undefined));

describe("the tags bar's visited views", () => {
  it("stay a cookie browsers keep (under 4 KB) however long the addresses are", () => {
    const long = (page: string, char: string) => `${page}?q=${char.repeat(5000)}`;
    const views = visit(long("/retrieval", "水"), long("/discovery", "a"), "/upload?x=1", long("/message", "%"));
    expect(paths(views)).toEqual(["/home", "/retrieval", "/discovery", "/upload?x=1", "/message"]);
    const many = [
      "/discovery",
      "/retrieval",
      "/upload",
      "/message",
      "/personal",
      "/liveStreaming",
      "/home/rankingList",
      "/home/recommendList",
    ]
      .map((page) => `${page}?q=${"気候".repeat(20)}`)
      .reduce((all, address) => addView(all, address), parseViews(undefined));
    expect(encodeURIComponent(serializeViews(many)).length).toBeLessThan(4096);
    expect(paths(parseViews(JSON.stringify([long("/retrieval", "x")])))).toEqual(["/home", "/retrieval"]);
  });

  it("always starts with the affixed Home tab and adds each new page once", () => {
    expect(paths(visit())).toEqual(["/home"]);
    expect(paths(visit("/discovery", "/upload", "/discovery?x=1"))).toEqual(["/home", "/discovery?x=1", "/upload"]);
  });

  it("never closes an affixed tab, alone or with the others", () => {
    const views = visit("/discovery", "/upload");
    expect(paths(closeView(views, "/home"))).toEqual(["/home", "/discovery", "/upload"]);
    expect(paths(closeOtherViews(views, "/upload"))).toEqual(["/home", "/upload"]);
    expect(paths(closeAllViews())).toEqual(["/home"]);
  });

  it("after closing the current page's tab, goes to the last remaining tab, or to the root", () => {
    const views = closeView(visit("/discovery", "/upload"), "/upload");
    expect(afterClose(views, "/upload", "/upload")).toBe("/discovery");
    expect(afterClose(views, "/discovery", "/discovery?q=1")).toBe("/discovery?q=1");
    expect(afterClose([], "/upload", "/upload")).toBe("/");
  });

  it("drops the oldest closable tab beyond the limit", () => {
    const views = ["/discovery", "/retrieval", "/upload", "/message"].reduce((v, p) => addView(v, p, 3), parseViews(undefined));
    expect(paths(views)).toEqual(["/home", "/upload", "/message"]);
  });

  it("survives the cookie round trip and drops anything that is not a page of the layout", () => {
    const raw = serializeViews(visit("/discovery"));
    expect(paths(parseViews(raw))).toEqual(["/home", "/discovery"]);
    expect(paths(parseViews('["//evil.example","/login","/nope","/upload"]'))).toEqual(["/home", "/upload"]);
    expect(paths(parseViews("not json"))).toEqual(["/home"]);
  });
});
