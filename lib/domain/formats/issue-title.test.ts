import { describe, expect, it } from "vitest";
import { issueTitle } from "./claude-code-records";

describe("issueTitle", () => {
  it("is the first line of text: an issue's own title, without heading marks or code", () => {
    expect(issueTitle("SyntaxError: invalid syntax\nI'm running `missing_colon.py` as follows:\n```python\ndivision(23, 0)\n```")).toBe("SyntaxError: invalid syntax");
    expect(issueTitle("\n\n## TimeDelta serialization precision\nHi there!")).toBe("TimeDelta serialization precision");
    expect(issueTitle("```\ntraceback\n```\nThe parser crashes")).toBe("The parser crashes");
  });

  it("cuts a long first line like any title", () => {
    const title = issueTitle(`${"word ".repeat(100)}\nsecond line`);
    expect(title.endsWith("…")).toBe(true);
    expect(title).not.toContain("second");
  });
});
