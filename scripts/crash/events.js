// Protocol events for the crash suite: runs that make the detector fire (turn
// budgets, identical outputs, repeated tool calls and failures, unchanged
// diffs, task attempts), with a few late events (older than the run's newest,
// so the writer re-evaluates the run), equal timestamps (arrival order decides)
// and offsets other than Z (the instant decides, not the text).

const NODES = ["planner", "coder", "verifier"];
const OUTPUTS = ["tests still red", "patched the parser", "tests still red", "no change"];
const FILES = ["src/parse.ts", "src/lex.ts", "README.md"];
const FAILURES = ["AssertionError: expected 3 to equal 4", "TypeError: x is undefined"];
const T0 = Date.UTC(2026, 2, 1);

/** A run's events, one `next()` at a time; `tsBase` places it on the clock. */
export function createRunScript(runId, rand, { tsBase = T0, idPrefix = runId, tsStrideMs = 1000, startEvent = true } = {}) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  let n = 0;
  let lastTs = tsBase;
  const tsFor = () => {
    const r = rand();
    let ms;
    if (n > 3 && r < 0.04) ms = tsBase + Math.max(0, n - 1 - Math.floor(rand() * 20)) * tsStrideMs; // late
    else if (r < 0.07) ms = lastTs; // the same instant as the one before
    else ms = tsBase + n * tsStrideMs + Math.floor(rand() * 500);
    lastTs = Math.max(lastTs, ms);
    return r > 0.95 ? withOffset(ms, 2) : new Date(ms).toISOString();
  };
  const base = (type, fields) => ({ v: 1, id: `${idPrefix}-${n}`, runId, ts: tsFor(), type, ...fields });
  const kinds = [
    () => base("node.started", { node: pick(NODES), turn: n }),
    () => base("node.completed", { node: pick(NODES), turn: n, tokens: 100 + Math.floor(rand() * 900), costUsd: 0.001, output: { final: pick(OUTPUTS) } }),
    () => {
      const from = pick(NODES);
      return base("edge.traversed", { from, to: NODES[(NODES.indexOf(from) + 1) % NODES.length] });
    },
    () => base("tool.called", { node: "coder", tool: pick(["read_file", "edit_file"]), args: { path: pick(FILES) }, ok: true, outputHash: pick(["h1", "h2"]) }),
    () => {
      const passed = rand() < 0.25;
      return base("verify.result", {
        node: "verifier", command: "npm test", passed, exitCode: passed ? 0 : 1,
        ...(passed ? {} : { failing: rand() < 0.5 ? ["parse > keeps spaces"] : ["parse > keeps spaces", "lex > numbers"], stderr: pick(FAILURES) }),
      });
    },
    () => base("artifact.diff", { node: "coder", diffHash: pick(["d1", "d2", "d3"]), files: [pick(FILES)] }),
    () => base("task.attempt", {
      node: "planner", taskId: pick(["T-1", "T-2"]), status: pick(["in_progress", "blocked", "completed"]),
      blockers: rand() < 0.5 ? ["waiting for review"] : [], completedWork: rand() < 0.5 ? ["parser"] : [],
    }),
    () => base("research.result", { node: "planner", query: pick(["lexer spec", "unicode spaces"]), resultsHash: pick(["q1", "q2"]), resultCount: 3 }),
  ];
  return {
    runId,
    get count() {
      return n;
    },
    next() {
      const e = n === 0 && startEvent
        ? base("run.started", {
            title: `crash ${runId}`, profile: "thorough",
            graph: { nodes: NODES.map((id) => ({ id })), edges: NODES.map((id, i) => ({ from: id, to: NODES[(i + 1) % NODES.length] })) },
            budgets: { maxTurnsPerNode: 4 + Math.floor(rand() * 12), maxSteps: 40 + Math.floor(rand() * 200), maxCycleIterations: 3 + Math.floor(rand() * 6) },
          })
        : kinds[Math.floor(rand() * kinds.length)]();
      n++;
      return e;
    },
  };
}

/** The same instant written with a `+hh:00` offset. */
function withOffset(ms, hours) {
  const local = new Date(ms + hours * 3_600_000).toISOString().replace("Z", "");
  return `${local}+${String(hours).padStart(2, "0")}:00`;
}

/** The key an event is stored under (unique per run). */
export const eventKey = (runId, id) => `${runId}\u0000${id}`;
