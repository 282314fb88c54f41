import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { DetectReport } from "@/lib/domain/detector";

// `npx loopscope detect ../shared/real-traces --json` over the whole corpus of
// real agent runs (read in place, never copied): every file read, the loops a
// person sees found where they happen, and nothing on the clean sessions.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CORPUS = fileURLToPath(new URL("../../../shared/real-traces", import.meta.url));

function detectCorpus(): DetectReport {
  const out = execFileSync(process.execPath, ["bin/loopscope.js", "detect", CORPUS, "--json"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(out) as DetectReport;
}

describe("detect over shared/real-traces", () => {
  const report = detectCorpus();

  it("reads every trace file: 37 runs in the seven agent formats, errors only for the corpus's own notes", () => {
    const perFormat: Record<string, number> = {};
    for (const run of report.runs) perFormat[run.format] = (perFormat[run.format] ?? 0) + 1;
    expect(perFormat).toEqual({ "claude-code": 7, codex: 2, openhands: 7, "swe-agent": 4, "mini-swe-agent": 5, aider: 5, "otel-genai": 7 });
    expect(report.errors.map((e) => e.source.slice(CORPUS.length + 1)).sort()).toEqual(
      ["README.md", "SHA256SUMS", ...["aider", "claude-code", "codex-cli", "mini-swe-agent", "openhands", "otel-genai", "swe-agent"].flatMap((d) => [`${d}/FORMAT.md`, `${d}/PROVENANCE.md`])].sort(),
    );
  });

  it("finds the loops at the records where they happen, and no finding anywhere else", () => {
    const found = report.runs.flatMap((run) =>
      run.findings.map((f) => ({
        run: run.runId,
        signal: f.signal,
        haltReason: f.haltReason,
        source: f.at === null ? null : f.at.source.slice(CORPUS.length + 1),
        line: f.at?.line ?? null,
        record: f.at?.record ?? null,
      })),
    );
    const aider = "custom_aider_history.md:2025-03-18T11:59:14";
    const aiderFile = "aider/agent_aider_worktree/44dc93dc/custom_aider_history.md";
    expect(found).toEqual([
      // The same `git commit` failing its pre-commit checks (Dialyzer timings differ; a Credo failure between).
      {
        run: "ae4a77f8-aedd-4bc1-888f-c94edc91af04", signal: "recurring_failure", haltReason: "repeated_error",
        source: "claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", line: 1419, record: null,
      },
      // `python reproduce_issue.py` prints the same wrong altitude after each of three edits (messages[39], [43], [47]):
      // the new module is never imported, as the agent finds out next.
      {
        run: "astropy__astropy-13398", signal: "unchanged_after_edits", haltReason: "stalled",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/astropy__astropy-13398/astropy__astropy-13398.traj.json", line: null, record: "messages[47]",
      },
      // pylint run on README.md after every blank-line edit: the same syntax error, the same edit twice.
      { run: aider, signal: "recurring_failure", haltReason: "repeated_error", source: aiderFile, line: 419, record: null },
      { run: aider, signal: "unchanged_diff", haltReason: "stalled", source: aiderFile, line: 642, record: null },
      { run: aider, signal: "repeated_failure", haltReason: "repeated_error", source: aiderFile, line: 667, record: null },
      // sed -i edits of base.py, undone by `git checkout` again and again.
      {
        run: "django__django-11138", signal: "edit_undo", haltReason: "oscillating",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/django__django-11138/django__django-11138.traj.json", line: null, record: "messages[105]",
      },
      // Django's `runtests.py timezones` failing the same way three times (messages[164], [168], [174]).
      {
        run: "django__django-11138", signal: "repeated_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/django__django-11138/django__django-11138.traj.json", line: null, record: "messages[175]",
      },
      {
        run: "django__django-11138", signal: "recurring_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/django__django-11138/django__django-11138.traj.json", line: null, record: "messages[175]",
      },
      // Edit, MultiEdit and Write of one file refused in turn, "File has not been read yet", in two sidechains.
      {
        run: "fe5e1c67-53e7-4862-81ae-d0e013e3270b", signal: "repeated_tool_error", haltReason: "repeated_error",
        source: "claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", line: 155, record: null,
      },
      {
        run: "fe5e1c67-53e7-4862-81ae-d0e013e3270b", signal: "repeated_tool_error", haltReason: "repeated_error",
        source: "claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", line: 381, record: null,
      },
      // Then `npm run build` fails the same way again and again, described anew each time ("Build from correct directory path").
      {
        run: "fe5e1c67-53e7-4862-81ae-d0e013e3270b", signal: "repeated_tool_call", haltReason: "stalled",
        source: "claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", line: 409, record: null,
      },
      // make, then make clean && make, then rm -rf build && make: the same build error however it is invoked.
      {
        run: "ponylang__ponyc-4588", signal: "repeated_tool_error", haltReason: "repeated_error",
        source: "openhands/multi_swe_bench/output.jsonl", line: 3, record: "history[70]",
      },
      // The agent's check script `verify_bar.py` failing the same way three times, with sed edits between.
      {
        run: "pylint-dev__pylint-6528", signal: "repeated_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/pylint-dev__pylint-6528/pylint-dev__pylint-6528.traj.json", line: null, record: "messages[65]",
      },
      {
        run: "pylint-dev__pylint-6528", signal: "recurring_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/pylint-dev__pylint-6528/pylint-dev__pylint-6528.traj.json", line: null, record: "messages[65]",
      },
      // The same no-op `sed -i 's/return mmsubsup/return mmsubsup/'` five times.
      {
        run: "sympy__sympy-15976", signal: "repeated_tool_call", haltReason: "stalled",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/sympy__sympy-15976/sympy__sympy-15976.traj.json", line: null, record: "messages[45]",
      },
      // Meanwhile `python test_complex.py` fails with the same NameError three times (messages[37], [51], [63]).
      {
        run: "sympy__sympy-15976", signal: "repeated_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/sympy__sympy-15976/sympy__sympy-15976.traj.json", line: null, record: "messages[63]",
      },
      {
        run: "sympy__sympy-15976", signal: "recurring_failure", haltReason: "repeated_error",
        source: "mini-swe-agent/20251118_gemini-3-pro/trajs/sympy__sympy-15976/sympy__sympy-15976.traj.json", line: null, record: "messages[63]",
      },
    ]);
  });

  it("ends each mini-SWE-agent run as the SWE-bench report.json beside it judges it, as ingest does", () => {
    const statuses = Object.fromEntries(report.runs.filter((r) => r.format === "mini-swe-agent").map((r) => [r.runId, r.terminalStatus]));
    expect(statuses).toEqual({
      "astropy__astropy-12907": "done_success",
      "astropy__astropy-13398": "done_partial",
      "django__django-11138": "done_partial",
      "pylint-dev__pylint-6528": "done_partial",
      "sympy__sympy-15976": "done_success",
    });
  });

  it("raises no no-progress finding on the converging fix-and-retest cycle or the polled build", () => {
    const clean = ["258c7280-ae70-4798-800f-63464d01a85d", "019e1625-789d-76c0-80ab-3724b5ddb799"];
    for (const runId of clean) expect(report.runs.find((r) => r.runId === runId)?.findings).toEqual([]);
  });
});
