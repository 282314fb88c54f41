// Synthetic protocol event lines for the detector benchmark: ~1,000 runs of a
// planner / researcher / coder / verifier graph, each made of rounds of
// turns, edges, tool calls, diffs, verify results and research results. Some
// runs make progress, others loop (same outputs, same research, same failure),
// so that the detector's signals do real work. Deterministic for a seed.
import { createRandom } from "../random.js";


const GRAPH = {
  nodes: [
    { id: "planner", label: "Planner", role: "planner" },
    { id: "researcher", label: "Researcher", role: "researcher" },
    { id: "coder", label: "Coder", role: "coder" },
    { id: "verifier", label: "Verifier", role: "verifier" },
  ],
  edges: [
    { from: "planner", to: "researcher" },
    { from: "researcher", to: "planner" },
    { from: "planner", to: "coder" },
    { from: "coder", to: "verifier" },
    { from: "verifier", to: "planner" },
  ],
};

const KINDS = ["progressing", "progressing", "identical", "research", "failing"];
const FILES = ["src/api/invoices.ts", "src/invoice/dates.ts", "src/lib/pdf.ts", "test/invoice.test.ts"];

/** The same text as one flat string. */
function flatten(text) {
  return Buffer.from(text, "utf8").toString("utf8");
}

function hex(random, length) {
  let out = "";
  while (out.length < length) out += Math.floor(random() * 0x100000000).toString(16).padStart(8, "0");
  return out.slice(0, length);
}

function buildPatch(file, round, variant) {
  return (
    `diff --git a/${file} b/${file}\nindex 3f1c2ab..9e0d4c7 100644\n` +
    `--- a/${file}\t2026-08-05 09:40:22.000000000 +0200\n+++ b/${file}\t2026-08-05 09:41:0${round % 10}.000000000 +0200\n` +
    `@@ -10,3 +10,3 @@\n export function dueDate(issued: Date): Date {\n` +
    `-  return addDays(issued, 30);\n+  return addDays(startOfDay(issued), ${30 + variant});\n }\n`
  );
}

/**
 * Generates protocol event lines (JSON text, one event each).
 *
 * @param {{ runs?: number, eventsPerRun?: number, seed?: number }} options
 * @returns {string[]}
 */
export function generateLines({ runs = 1000, eventsPerRun = 1000, seed = 42 } = {}) {
  const random = createRandom(seed);
  const lines = [];
  const start = Date.UTC(2026, 7, 1);
  for (let r = 0; r < runs; r++) {
    const runId = `run_${String(r).padStart(5, "0")}_${hex(random, 8)}`;
    const kind = KINDS[r % KINDS.length];
    let clock = start + r * 3_600_000;
    let seq = 0;
    const emit = (type, fields) => {
      clock += 200 + Math.floor(random() * 800);
      seq++;
      // Flat, as a line read from a file is: JSON.stringify's own result is a rope of its pieces, half as
      // large again in memory, that every parse would first have to flatten.
      lines.push(flatten(JSON.stringify({ v: 1, id: `${runId}-${seq}`, runId, ts: new Date(clock).toISOString(), type, ...fields })));
    };
    const turn = (node, round, output, extra = {}) => {
      emit("node.started", { node, turn: round });
      emit("node.completed", {
        node,
        turn: round,
        durationMs: 2000 + Math.floor(random() * 30000),
        tokens: 1000 + Math.floor(random() * 9000),
        costUsd: Math.round(random() * 400) / 10000,
        ...output,
        ...extra,
      });
    };
    const first = lines.length;
    emit("run.started", { title: `Synthetic run ${r}`, profile: "fast", graph: GRAPH, budgets: { maxTurnsPerNode: 1000, maxSteps: 5000 } });
    // Leaves room for run.completed, so that every run has exactly eventsPerRun events.
    const end = first + eventsPerRun - 1;
    for (let round = 1; lines.length < end - 16; round++) {
      const stuck = kind !== "progressing" && round > 3;
      turn("planner", round, { output: { structured: { next: "coder", reason: `Round ${stuck ? "again" : round}`, profile: "fast" } } });
      if (kind === "research" || round % 4 === 0) {
        emit("edge.traversed", { from: "planner", to: "researcher" });
        emit("research.result", {
          node: "researcher",
          query: `pdf rendering library ${stuck ? "" : round}`,
          resultsHash: stuck ? "f9be23f46cc348b540135aeba063ace29402712a4760d208d99524dd67845940" : hex(random, 64),
          quality: 0.4,
          resultCount: 4,
        });
        turn("researcher", round, {}, { outputHash: hex(random, 64) });
        emit("edge.traversed", { from: "researcher", to: "planner" });
      }
      emit("edge.traversed", { from: "planner", to: "coder" });
      emit("tool.called", { node: "coder", tool: "read_file", args: { path: FILES[round % FILES.length], limit: 200 }, ok: true, outputHash: hex(random, 64) });
      const same = kind === "identical" && stuck;
      emit("artifact.diff", {
        node: "coder",
        files: [FILES[round % FILES.length]],
        patch: buildPatch(FILES[round % FILES.length], round, same ? 0 : round),
        ...(round % 3 === 0 ? { diffHash: hex(random, 64) } : {}),
      });
      // Half of the turns come with the runtime's own output hash.
      const output = same ? "Adjusted dueDate() timezone handling." : `Attempt ${round}: adjusted dueDate() in ${FILES[round % FILES.length]}.`;
      turn("coder", round, round % 2 === 0 ? { outputHash: same ? "a1".repeat(32) : hex(random, 64) } : { output: { final: output } });
      emit("edge.traversed", { from: "coder", to: "verifier" });
      const failing = kind === "failing" || random() < 0.5;
      emit("verify.result", {
        node: "verifier",
        command: "npx vitest run test/invoice.test.ts",
        passed: !failing,
        exitCode: failing ? 1 : 0,
        ...(failing && round % 2 === 0 ? { failing: ["invoice > due date > Vienna", `invoice > case ${stuck ? 1 : round}`] } : {}),
        ...(failing
          ? { stderr: `FAIL test/invoice.test.ts > due date (${Math.floor(random() * 300)}ms)\nAssertionError: expected 2026-09-04 to equal 2026-09-03\n at 0x${hex(random, 6)}\n` }
          : {}),
      });
      turn("verifier", round, {}, { tokens: 400 });
      emit("edge.traversed", { from: "verifier", to: "planner" });
    }
    while (lines.length < end) emit("node.started", { node: "planner" });
    emit("run.completed", { terminalStatus: kind === "progressing" ? "done_success" : "aborted_stuck" });
  }
  return lines;
}
