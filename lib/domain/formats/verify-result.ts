/**
 * The `verify.result` of a shell command in a foreign transcript (a test run,
 * a lint, a commit with its hooks), built the same way for every agent format:
 * the exit code where the format has one, the failing tests read from the
 * runner's output, and a failure signature that does not change with the clock.
 */
import { hashMaskedCommandFailure, normalizeLineEndings } from "../protocol/hashes";
import { maskToolOutput, readCheckScript } from "./claude-code-commands";
import { parseTestOutput, type TestOutcome } from "./test-output";

/** The most of an output kept as `stderr` (the failure signature reads its first 20 lines). */
export const MAX_VERIFY_OUTPUT_CHARS = 64 * 1024;

export interface VerifyInput {
  runId: string;
  /** The event's id, stable across reads. */
  id: string;
  ts: string;
  node?: string;
  command: string;
  /** What the command printed (stdout and stderr as the format keeps them). */
  output: string;
  /** The exit code, when the format records it. */
  exitCode?: number;
  /** The format's own error flag, read when there is no exit code. */
  failed?: boolean;
  /** `maskOutputText(output)`, when the caller made it (for the output hash): the failure signature reads its first lines. */
  maskedOutput?: string;
  /** Extension fields kept on the event (`toolUseId`, …). */
  extra?: Record<string, unknown>;
}

/**
 * A `verify.result` event (a plain object, validated by the caller through
 * `toParseItem`): `passed` from the exit code; without one, failed when the
 * format flags an error or the runner's output counts failures (a `| tail`
 * hides the exit code but not the summary); `failing` when the output names
 * failing tests; `failingCount` (an extension field the detector counts by:
 * the protocol has no count field, only ids) when the runner's summary counts
 * more failures than the ids it names (`297 tests, 11 failures` after a
 * `| tail`); `failureSignature` (an extension field the detector prefers)
 * from the command and the output's first lines with timestamps, durations,
 * ids and addresses masked, so that five runs of one failing commit that
 * differ only in timings share one signature; `checkScript` (an extension
 * field: the script's file name) when the command runs only the agent's own
 * check scripts (`python reproduce_issue.py`) and printed no test runner's
 * report, whose unchanged output after edits is the detector's
 * `unchanged_after_edits`.
 */
export function buildVerifyEvent(input: VerifyInput): Record<string, unknown> {
  const known = readKnownOutcome(input);
  // The runner's output is read only where it can say something: it decides `passed` when neither an exit code
  // nor the format's flag does, and it names failures only of a run that failed (a passing test run is not read).
  const outcome = known === true ? null : parseTestOutput(input.output);
  const passed = known ?? (outcome === null || outcome.failed === 0);
  const stderr = input.output.length > MAX_VERIFY_OUTPUT_CHARS ? input.output.slice(0, MAX_VERIFY_OUTPUT_CHARS) : input.output;
  const event: Record<string, unknown> = {
    v: 1,
    id: input.id,
    type: "verify.result",
    runId: input.runId,
    ts: input.ts,
    ...(input.node !== undefined ? { node: input.node } : {}),
    command: input.command,
    passed,
    ...(input.exitCode !== undefined ? { exitCode: input.exitCode } : {}),
    ...(outcome !== null && outcome.failing.length > 0 && !passed ? { failing: outcome.failing } : {}),
    ...(outcome !== null && outcome.failed > outcome.failing.length && !passed ? { failingCount: outcome.failed } : {}),
    stderr,
    ...withCheckScript(input, known, outcome),
    ...input.extra,
  };
  if (!passed) event.failureSignature = hashMaskedCommandFailure(input.command, readSignatureLines(input, stderr));
  return event;
}

/**
 * `checkScript`: the file name of the agent's own check script, when the
 * command runs only such scripts and what they printed is no test runner's
 * report (`python test_dates.py` ending in `unittest.main()` is a test run,
 * whose passing output is meant to stay the same while code is refactored).
 */
function withCheckScript(input: VerifyInput, known: boolean | undefined, outcome: TestOutcome | null): { checkScript?: string } {
  const script = readCheckScript(input.command);
  if (script === null) return {};
  // A passing run's output was not read for its outcome: it is read now, for this command only.
  return (known === true ? parseTestOutput(input.output) : outcome) === null ? { checkScript: script } : {};
}

/** Whether the run passed as its exit code, else the format's failure flag, says; undefined when neither says. */
function readKnownOutcome(input: VerifyInput): boolean | undefined {
  if (input.exitCode !== undefined) return input.exitCode === 0;
  return input.failed === true ? false : undefined;
}

/**
 * The masked lines a failure signature reads (at most 20, line endings
 * normalised: what `hashMaskedCommandFailure` takes): the first lines of the masked
 * output when the caller masked it and `stderr` is the whole output (masking
 * the lines alone gives the same lines, see `takeSignatureLines`), else
 * those lines of `stderr`, masked.
 */
function readSignatureLines(input: VerifyInput, stderr: string): string {
  if (input.maskedOutput !== undefined && stderr === input.output) return takeSignatureLines(input.maskedOutput);
  return maskToolOutput(takeSignatureLines(stderr));
}

/**
 * The lines of `stderr` a failure signature reads (`hashCommandFailure`: the
 * first 20, line endings normalised), so that only they are masked: masking
 * never adds or removes a line break, and what it changes in a line depends
 * on that line alone (a `seed`/`pid` pattern that reaches into the next line
 * leaves this one as it is), so masking the 20 lines gives the same lines as
 * masking the whole output up to 64 KiB.
 */
function takeSignatureLines(stderr: string): string {
  const text = normalizeLineEndings(stderr);
  let end = -1;
  for (let i = 0; i < 20; i++) {
    end = text.indexOf("\n", end + 1);
    if (end === -1) return text;
  }
  return text.slice(0, end);
}
