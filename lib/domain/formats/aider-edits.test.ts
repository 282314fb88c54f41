import { describe, expect, it } from "vitest";
import { formatEditPatch, listEditBlocks, listFailedBlocks, isSameBlock } from "./aider-edits";
import { groupSessionLines, joinEntryRaws, type SourceLine, type SourceText, type ToolEntry } from "./aider-lines";
import { readAnnouncement, readAnswer, readUsage, LINT_QUESTION } from "./aider-output";

const numbered = (texts: string[]): SourceLine[] => texts.map((text, i) => ({ line: i + 1, text }));
const entries = (texts: string[]) => texts.map((text, i) => ({ line: i + 1, text, raw: `> ${text}  ` }));

describe("listEditBlocks", () => {
  it("names a block's file from the line before its fence, or the previous block's, as Aider does", () => {
    const blocks = listEditBlocks(numbered([
      "Here:", "", "### src/a.py:", "```python", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "", "<<<<<<< SEARCH", "c", "=======", ">>>>>>> REPLACE", "```",
      "", "`b.md`", "````markdown", "<<<<<<< SEARCH", "=======", "```bash", "run", "```", ">>>>>>> REPLACE", "````",
    ]));
    expect(blocks.map((b) => [b.line, b.path, b.search, b.replace])).toEqual([
      [3, "src/a.py", ["a"], ["b"]],
      [11, "src/a.py", ["c"], []],
      [17, "b.md", [], ["```bash", "run", "```"]],
    ]);
    expect(blocks[0].raw).toBe("### src/a.py:\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE");
  });

  it("takes a file name written on the fence line, and leaves out blocks without a file or an end", () => {
    expect(listEditBlocks(numbered(["```x/y.ts", "<<<<<<< SEARCH", "=======", "z", ">>>>>>> REPLACE"])).map((b) => b.path)).toEqual(["x/y.ts"]);
    expect(listEditBlocks(numbered(["", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE"]))).toEqual([]);
    const broken = listEditBlocks(numbered(["f.py", "<<<<<<< SEARCH", "a", "g.py", "<<<<<<< SEARCH", "x", "=======", "y", ">>>>>>> REPLACE"]));
    expect(broken.map((b) => [b.path, b.search])).toEqual([["g.py", ["x"]]]);
    expect(listEditBlocks(numbered(["f.py", "<<<<<<< SEARCH", "a", "======="]))).toEqual([]);
  });
});

describe("formatEditPatch", () => {
  it("keeps the lines both sides share at the ends as context", () => {
    expect(formatEditPatch({ path: "a.py", search: ["def f():", "    return 1", ""], replace: ["def f():", "    return 2", ""] })).toBe(
      "--- a.py\n+++ a.py\n@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n \n",
    );
  });

  it("writes a new file against /dev/null and a deletion with an empty new side", () => {
    expect(formatEditPatch({ path: "n.md", search: [], replace: ["# N"] })).toBe("--- /dev/null\n+++ n.md\n@@ -0,0 +1,1 @@\n+# N\n");
    expect(formatEditPatch({ path: "n.md", search: ["x"], replace: [] })).toBe("--- n.md\n+++ n.md\n@@ -1,1 +0,0 @@\n-x\n");
  });
});

describe("listFailedBlocks", () => {
  it("splits Aider's report into one entry per failed block and matches it to the proposed block", () => {
    const report = entries([
      "", "## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in aider/io.py", "<<<<<<< SEARCH", "    x = 1", "=======", "    x = 2", ">>>>>>> REPLACE", "",
      "## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in b.py", "<<<<<<< SEARCH", "y", "=======", "z", ">>>>>>> REPLACE", "", "The SEARCH section must exactly match an existing block",
    ]);
    const failed = listFailedBlocks(report);
    expect(failed.map((f) => [f.line, f.path, f.search, f.replace])).toEqual([[2, "aider/io.py", ["    x = 1"], ["    x = 2"]], [9, "b.py", ["y"], ["z"]]]);
    expect(failed[1].text.split("\n").at(-1)).toBe("The SEARCH section must exactly match an existing block");
    const block = { line: 1, path: "/repo/aider/io.py", search: ["    x = 1  "], replace: [], raw: "" };
    expect(isSameBlock(block, failed[0])).toBe(true);
    expect(isSameBlock({ ...block, search: ["x = 1"] }, failed[0])).toBe(false);
  });
});

describe("readUsage", () => {
  it("reads exact, rounded and cached counts and the message cost", () => {
    expect(readUsage("Tokens: 10,163 sent, 277 received. Cost: $0.03 request, $0.03 session.")).toEqual({ tokens: 10440, inputTokens: 10163, outputTokens: 277, costUsd: 0.03 });
    expect(readUsage("Tokens: 19k sent, 1.1k received. Cost: $0.0081 message, $0.0081 session.")).toMatchObject({ tokens: 20100, costUsd: 0.0081 });
    expect(readUsage("Tokens: 2.4k sent, 1.2k cache write, 3.5k cache hit, 34 received.")).toEqual({
      tokens: 5934, inputTokens: 2400, cacheCreationInputTokens: 1200, cacheReadInputTokens: 3500, outputTokens: 34,
    });
    expect(readUsage("Tokens: lots")).toBeNull();
  });
});

describe("readAnnouncement and readAnswer", () => {
  it("reads the version, model, --test-cmd and one-shot mode", () => {
    const announced = readAnnouncement(entries([
      "/home/u/bin/aider --model r1 --auto-test --test-cmd python3.11 -m pytest --message Fix it. a.py", "Aider v0.77.1", "Main model: openrouter/deepseek/deepseek-r1 with diff edit format",
    ]));
    expect(announced).toEqual({ version: "0.77.1", model: "openrouter/deepseek/deepseek-r1", testCommand: "python3.11 -m pytest", oneShot: true });
    expect(readAnnouncement(entries(["Models: claude-3-5-sonnet-20240620 with diff edit format, weak model x"]))).toEqual({ model: "claude-3-5-sonnet-20240620", oneShot: false });
  });

  it("reads the answer to a question in every version's wording", () => {
    expect(readAnswer("Attempt to fix lint errors? y", LINT_QUESTION)).toBe("yes");
    expect(readAnswer("Attempt to fix lint errors? [Y/n] n", LINT_QUESTION)).toBe("no");
    expect(readAnswer("Attempt to fix lint errors? (Y)es/(N)o [Yes]: y", LINT_QUESTION)).toBe("yes");
    expect(readAnswer("Commit abc1234 x", LINT_QUESTION)).toBeNull();
  });
});

describe("groupSessionLines", () => {
  it("keeps a reply's own `####` and `>` lines inside its fences, and Aider's lines after an unclosed fence", () => {
    const blocks = groupSessionLines(numbered([
      "#### show me  ", "", "notes.md", "```markdown", "#### Heading", "> quoted", "```", "", "> Tokens: 1k sent, 9 received.  ",
      "", "#### next  ", "", "```", "cut off", "", "#### again  ", "> Tokens: 5 sent, 1 received.",
    ]), true);
    expect(blocks.map((b) => [b.kind, b.line])).toEqual([["user", 1], ["assistant", 3], ["tool", 9], ["user", 11], ["assistant", 13], ["user", 16], ["tool", 17]]);
  });

  it("joins a multi-line message and continues a console line with the unprefixed line Aider writes after it", () => {
    const blocks = groupSessionLines(numbered(["#### one  ", "#### two  ", "> Tokens: 3.0k sent, 354 received.", "Cost: $0.01 message, $0.01 session.  "]), true);
    expect(blocks).toEqual([
      { kind: "user", line: 1, lines: [{ line: 1, text: "one" }, { line: 2, text: "two" }] },
      { kind: "tool", line: 3, entries: [{ line: 3, text: "Tokens: 3.0k sent, 354 received.\nCost: $0.01 message, $0.01 session.", raw: "> Tokens: 3.0k sent, 354 received.\nCost: $0.01 message, $0.01 session.  " }] },
    ]);
  });
});

describe("joinEntryRaws", () => {
  /** The document of `texts` with its line offsets, and the console entries its grouping makes. */
  const read = (texts: string[]): { source: SourceText; entries: ToolEntry[] } => {
    const text = texts.join("\n");
    const starts: number[] = [];
    let at = 0;
    for (const line of texts) {
      starts.push(at);
      at += line.length + 1;
    }
    const blocks = groupSessionLines(numbered(texts), true);
    return { source: { text, starts }, entries: blocks.flatMap((b) => (b.kind === "tool" ? b.entries : [])) };
  };
  const joined = (entries: ToolEntry[]) => entries.map((e) => e.raw).join("\n");

  it("is the document's own text for consecutive console lines, and their raws joined where a blank line was left out", () => {
    const plain = read(["> Aider v0.50  ", "> Model: x  ", "> Git repo: .git  "]);
    expect(joinEntryRaws(plain.source, plain.entries)).toBe(joined(plain.entries));
    // Before the first prompt, text after a blank line continues the announcement: the blank line is not in its raw.
    for (const tail of [[], ["> Repo-map: on  "]]) {
      const gap = read(["> aider --message fix  ", "   ", "the tests", ...tail]);
      expect(gap.entries[0].raw).toBe("> aider --message fix  \nthe tests");
      expect(joinEntryRaws(gap.source, gap.entries)).toBe(joined(gap.entries));
    }
  });
});
