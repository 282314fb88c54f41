import { describe, expect, it } from "vitest";
import { buildShellChangeEvents, readShellChanges } from "./shell-edits";

describe("readShellChanges", () => {
  it.each([
    ["git checkout django/db/backends/sqlite3/base.py", [], ["django/db/backends/sqlite3/base.py"], false],
    ["git checkout -- a b", [], ["a", "b"], false],
    ["git restore src/x.ts", [], ["src/x.ts"], false],
    ["git restore --staged src/x.ts", [], [], false],
    ["git checkout main", [], [], false],
    ["git checkout -b feature", [], [], false],
    ["git checkout .", [], [], true],
    ["git stash", [], [], true],
    ["git reset --hard HEAD", [], [], true],
    ["sed -i '401a\\    print(1)' django/base.py", ["django/base.py"], [], false],
    ["sed -i.bak -e 's/a/b/' x.py y.py", ["x.py", "y.py"], [], false],
    ["sed -n '40,60p' x.py", [], [], false],
    ["perl -pi -e 's/a/b/' x.pl", ["x.pl"], [], false],
    ["cat <<'EOF' > reproduce.py\nimport os\nprint(1) > 2\nEOF", ["reproduce.py"], [], false],
    ["echo hi >> notes.md", ["notes.md"], [], false],
    ["echo hi > /dev/null 2>&1", [], [], false],
    ["python x.py > out.txt", [], [], false],
    ["ls | tee listing.txt", ["listing.txt"], [], false],
    ["git checkout f.py && \\\nsed -i '/import/a x' f.py", ["f.py"], ["f.py"], false],
  ])("%j", (command, edited, reverted, revertsAll) => {
    expect(readShellChanges(command)).toEqual({ edited, reverted, revertsAll });
  });
});

describe("buildShellChangeEvents", () => {
  it("gives the revert before the edit, with stable ids", () => {
    const events = buildShellChangeEvents({ runId: "r", id: "u1:0", ts: "2026-01-01T00:00:00Z", node: "main" }, "git checkout f.py && sed -i 's/a/b/' f.py");
    expect(events).toEqual([
      { v: 1, runId: "r", ts: "2026-01-01T00:00:00Z", node: "main", id: "u1:0:revert", type: "artifact.diff", reverts: true, files: ["f.py"] },
      { v: 1, runId: "r", ts: "2026-01-01T00:00:00Z", node: "main", id: "u1:0:edit", type: "artifact.diff", files: ["f.py"] },
    ]);
    expect(buildShellChangeEvents({ runId: "r", id: "x", ts: "t" }, "ls -la")).toEqual([]);
  });
});
