import { afterEach, describe, expect, it, vi } from "vitest";
import { failedRequest } from "~/.server/web/observability/failures";

afterEach(() => vi.restoreAllMocks());

function capture() {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: string) => lines.push(line));
  return lines;
}

describe("a request that failed on the server", () => {
  it("answers the API in its envelope with the request id, never plain text, and logs it once", async () => {
    const lines = capture();
    const response = failedRequest(
      new Request("http://127.0.0.1/api/contents?q=secret", { method: "POST" }),
      "req-42",
      new TypeError("boom"),
    );
    expect(response.status).toBe(500);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toEqual({ code: 500, message: "Something went wrong", request_id: "req-42" });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? "{}");
    expect(entry).toMatchObject({ level: "error", event: "request.failed", request_id: "req-42", method: "POST", path: "/api/contents" });
    expect(entry.error).toMatchObject({ name: "TypeError", message: "boom" });
    expect(lines[0]).not.toContain("secret");
  });

  it("shows a member the id on a translated page", async () => {
    capture();
    const response = failedRequest(
      new Request("http://127.0.0.1/home", { headers: { "Accept-Language": "zh-CN,zh;q=0.9" } }),
      "req-43",
      new Error("x"),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain('<html lang="zh">');
    expect(html).toContain("出错了");
    expect(html).toContain("供运营人员参考的编号：req-43");
  });
});
