import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { toSafeHref } from "./safe-url";
import { listReportSections, getReportAnchorId } from "./report-sections";
import { describeEvidence } from "./finding-evidence";

describe("toSafeHref", () => {
  it("keeps web, mail and in-page links", () => {
    expect(toSafeHref("https://example.com/a?b=1#c")).toBe("https://example.com/a?b=1#c");
    expect(toSafeHref("http://localhost:3000/x")).toBe("http://localhost:3000/x");
    expect(toSafeHref("mailto:dev@example.com")).toBe("mailto:dev@example.com");
    expect(toSafeHref("#report-l12")).toBe("#report-l12");
  });

  it.each([
    "javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)", "\u0001javascript:x",
    "data:text/html;base64,PHNjcmlwdD4=", "DATA:image/svg+xml,<svg onload=alert(1)>", "vbscript:msgbox", "file:///etc/passwd",
    "blob:https://x/y", "//evil.example/x", "/api/runs", "../secrets", "relative/path", "https:", "#a b\"onmouseover=x", "",
  ])("drops %j", (url) => {
    expect(toSafeHref(url)).toBeNull();
  });

  it("only ever returns http(s), mailto or #anchors", () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const out = toSafeHref(s);
      return out === null || /^(https?:\/\/[^\s]|mailto:|#)/i.test(out);
    }));
  });
});

describe("listReportSections", () => {
  it("lists the `##` sections of a real SDD report with their lines", () => {
    const md = readFileSync(resolve(__dirname, "../../fixtures/sdd/runs/2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md"), "utf8");
    const sections = listReportSections(md);
    expect(sections.map((s) => s.title)).toEqual(expect.arrayContaining(["Ticket", "Metrics", "Flow Metrics (DORA Proxies)", "Budget Usage", "Diagnostics Timeline"]));
    const lines = md.split("\n");
    for (const s of sections) expect(lines[s.line - 1]).toBe(`## ${s.title}`);
  });

  it("skips headings inside fenced code and strips emphasis", () => {
    const md = "## **Plan**\n```\n## not a heading\n```\n~~~md\n## nor this\n~~~\n## Done ##\n### deeper";
    expect(listReportSections(md)).toEqual([{ title: "Plan", line: 1 }, { title: "Done", line: 8 }]);
    expect(getReportAnchorId("report", 8)).toBe("report-l8");
  });
});

describe("describeEvidence", () => {
  it("labels the detector's evidence and leaves out empty windows and the count", () => {
    expect(describeEvidence({ outputHashes: ["a", "b"], diffHashes: [], failureSignatures: [], failingCounts: [3, 3, 2, 3], count: 3, limit: 3, queries: ["pdf libs"] }))
      .toEqual([
        { label: "Output hashes", values: ["a", "b"] },
        { label: "Failing tests", values: ["3 ×2", "2", "3"] },
        { label: "Repeated queries", values: ["pdf libs"] },
      ]);
  });

  it("shows whatever a runtime sent", () => {
    expect(describeEvidence({ stalledNode: "implementer", detail: { n: 4 } })).toEqual([
      { label: "Stalled node", values: ["implementer"] },
      { label: "Detail", values: ['{"n":4}'] },
    ]);
    expect(describeEvidence("4 identical outputs")).toEqual([{ label: "Evidence", values: ["4 identical outputs"] }]);
    expect(describeEvidence(null)).toEqual([]);
  });

  it("never throws", () => {
    fc.assert(fc.property(fc.anything(), (v) => Array.isArray(describeEvidence(v))));
  });
});
