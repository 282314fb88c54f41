/**
 * The tool calls of one Codex session while its records are read: each call
 * waits for its result by `call_id`; a shell command that is still running
 * (`Process running with session ID N`) collects the output of the
 * `write_stdin` polls of that session until one says `Process exited with
 * code N`. Builds the protocol events of a finished call as plain objects.
 */
import { hashToolOutput, isVerifyCommand } from "./claude-code-commands";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { buildShellChangeEvents } from "./shell-edits";
import { buildVerifyEvent } from "./verify-result";
import { buildChangesDiff, isToolFailureText, readExecOutput, readShellCommand, readToolOutput } from "./codex-records";

/** Where an event came from: the record that the event's `line`/`raw` name. */
export interface RecordOrigin {
  line: number;
  raw: string;
  sourceType: string;
  ts: string;
}

/** An event not yet validated, with the record it came from. */
export interface ToolEvent {
  event: Record<string, unknown>;
  origin: RecordOrigin;
}

/** A tool call waiting for its result. */
interface PendingCall {
  callId: string;
  /** The name the model called (`exec_command`, `write_stdin`, `apply_patch`, …). */
  name: string;
  /** `tool.called.tool`: the name, prefixed by an MCP namespace. */
  tool: string;
  args: unknown;
  origin: RecordOrigin;
  node: string;
  turnId?: string;
  /** The shell command of a shell tool. */
  command?: string;
  /** Output bodies of the command (its own output and its polls'), in order. */
  chunks: string[];
  polls: number;
  /** `exec_command_end`, when it came before the command's final output. */
  end?: { exitCode?: number; output?: string; origin: RecordOrigin };
  /** `patch_apply_end` of an `apply_patch`, when it came before the result. */
  patchEnd?: { changes: Record<string, unknown>; success: boolean; origin: RecordOrigin };
}

/** What a call record says, read by the session. */
export interface CallInput {
  callId: string;
  name: string;
  namespace?: string;
  args: unknown;
  origin: RecordOrigin;
  node: string;
  turnId?: string;
}

/** Pairs calls with their results and builds `tool.called`, `verify.result` and `artifact.diff`. */
export class CodexTools {
  private readonly pending = new Map<string, PendingCall>();
  /** Running shell commands by the session id their output named. */
  private readonly processes = new Map<string, PendingCall>();
  /** `apply_patch` calls whose `tool.called` was built before their `patch_apply_end`. */
  private readonly patched = new Map<string, PendingCall>();

  constructor(private readonly runId: string) {}

  /** A `function_call`, `custom_tool_call` or `local_shell_call`. */
  addCall(input: CallInput): void {
    const tool = input.namespace === undefined ? input.name : joinNamespace(input.namespace, input.name);
    this.pending.set(input.callId, {
      ...input,
      tool,
      command: readShellCommand(input.name, input.args),
      chunks: [],
      polls: 0,
    });
  }

  /** A `function_call_output` or `custom_tool_call_output`. */
  addOutput(callId: string, output: unknown, origin: RecordOrigin): ToolEvent[] {
    const call = this.pending.get(callId);
    if (call === undefined) return [];
    const read = readToolOutput(output);
    const exec = readExecOutput(read.text);
    const exitCode = exec.exitCode ?? read.exitCode;
    if (call.name === "write_stdin") return this.addPollOutput(call, exec, read.failed, origin);
    if (call.command !== undefined) {
      call.chunks.push(exec.body);
      if (exitCode !== undefined) return this.finishCommand(call, exitCode, origin);
      if (exec.sessionId !== undefined && !read.failed) {
        this.processes.set(exec.sessionId, call);
        return [];
      }
      // Not run at all (refused, not parsed, sandbox denied): a failed call without an exit code.
      return this.finishCommand(call, undefined, origin);
    }
    this.pending.delete(callId);
    const ok = !read.failed && (exitCode === undefined || exitCode === 0) && !isToolFailureText(exec.body);
    return [this.buildToolCalled(call, ok, exec.body, origin, { exitCode }), ...this.takeDiff(call)];
  }

  /** `exec_command_end`: the command's structured exit code, kept until its final output. */
  addExecEnd(callId: string, exitCode: number | undefined, output: string | undefined, origin: RecordOrigin): void {
    const call = this.pending.get(callId);
    if (call !== undefined) call.end = { exitCode, output, origin };
  }

  /** `patch_apply_end`: the diff of an `apply_patch`, given with its `tool.called` or at once. */
  addPatchEnd(callId: string, changes: Record<string, unknown>, success: boolean, origin: RecordOrigin, node: string): ToolEvent[] {
    const patchEnd = { changes, success, origin };
    const waiting = this.pending.get(callId);
    if (waiting !== undefined) {
      waiting.patchEnd = patchEnd;
      return [];
    }
    const done = this.patched.get(callId);
    this.patched.delete(callId);
    const call = done ?? { callId, name: "apply_patch", tool: "apply_patch", args: null, origin, node, chunks: [], polls: 0 };
    return this.buildDiff(call, patchEnd);
  }

  /**
   * The end of a turn: a command whose `exec_command_end` came but whose final
   * output the model never polled is finished from that record.
   */
  finishEnded(): ToolEvent[] {
    const events: ToolEvent[] = [];
    for (const call of [...this.pending.values()]) {
      if (call.end === undefined) continue;
      if (call.end.output !== undefined) call.chunks = [call.end.output];
      events.push(...this.finishCommand(call, call.end.exitCode, call.end.origin));
    }
    return events;
  }

  private addPollOutput(call: PendingCall, exec: ReturnType<typeof readExecOutput>, failed: boolean, origin: RecordOrigin): ToolEvent[] {
    this.pending.delete(call.callId);
    const fields = readObject(call.args);
    const session = fields.session_id;
    const process = typeof session === "number" || typeof session === "string" ? this.processes.get(String(session)) : undefined;
    const isPoll = (fields.chars ?? "") === "" && exec.hasHeader && process !== undefined && !failed;
    const events: ToolEvent[] = [];
    // Input typed into a process is a call of its own; an empty poll only reads the output.
    if (!isPoll) {
      const ok = !failed && !isToolFailureText(exec.body);
      events.push(this.buildToolCalled(call, ok, exec.body, origin, {}));
    }
    if (process === undefined || !exec.hasHeader) return events;
    process.chunks.push(exec.body);
    if (isPoll) process.polls++;
    if (exec.exitCode !== undefined) events.push(...this.finishCommand(process, exec.exitCode, origin));
    return events;
  }

  /** A shell command's events, once its exit code (or that it never ran) is known. */
  private finishCommand(call: PendingCall, exitCode: number | undefined, origin: RecordOrigin): ToolEvent[] {
    this.pending.delete(call.callId);
    for (const [session, process] of this.processes) if (process === call) this.processes.delete(session);
    // exec_command_end's exit code is the structured one; the header's agrees in every real file.
    const code = call.end?.exitCode ?? exitCode;
    const output = call.chunks.join("");
    const hashed = code !== undefined && code !== 0 ? `Exit code ${code}\n${output}` : output;
    const polled = call.polls === 0 ? {} : { polls: call.polls };
    const events = [this.buildToolCalled(call, code === 0, hashed, origin, { exitCode: code, ...polled })];
    if (call.command !== undefined && code !== undefined && isVerifyCommand(call.command)) {
      const verifyOrigin = call.end?.origin ?? origin;
      const event = buildVerifyEvent({
        runId: this.runId,
        id: `${call.callId}:verify`,
        ts: call.origin.ts,
        node: call.node,
        command: call.command,
        output,
        exitCode: code,
        extra: { callId: call.callId },
      });
      events.push({ event, origin: verifyOrigin });
    }
    if (call.command !== undefined && code === 0) {
      const base = { runId: this.runId, id: call.callId, ts: call.origin.ts, node: call.node };
      for (const change of buildShellChangeEvents(base, call.command)) events.push({ event: change, origin });
    }
    return [...events, ...this.takeDiff(call)];
  }

  /**
   * The diff of a finished call whose `patch_apply_end` came first; else the
   * call is kept for a later one (Codex also applies an `apply_patch` run
   * through a shell command, under that command's `call_id`).
   */
  private takeDiff(call: PendingCall): ToolEvent[] {
    if (call.patchEnd !== undefined) return this.buildDiff(call, call.patchEnd);
    if (call.name === "apply_patch" || call.command?.includes("apply_patch") === true) this.patched.set(call.callId, call);
    return [];
  }

  private buildToolCalled(call: PendingCall, ok: boolean, outputText: string, result: RecordOrigin, extra: Record<string, unknown>): ToolEvent {
    const durationMs = Date.parse(result.ts) - Date.parse(call.origin.ts);
    const event: Record<string, unknown> = {
      v: 1,
      id: call.callId,
      runId: this.runId,
      ts: call.origin.ts,
      type: "tool.called",
      node: call.node,
      tool: call.tool,
      args: call.args,
      ok,
      outputHash: hashToolOutput(outputText),
      ...extra,
      durationMs: Number.isFinite(durationMs) && durationMs >= 0 ? durationMs : undefined,
      callId: call.callId,
      turnId: call.turnId,
    };
    return { event, origin: call.origin };
  }

  private buildDiff(call: PendingCall, patchEnd: NonNullable<PendingCall["patchEnd"]>): ToolEvent[] {
    if (!patchEnd.success) return [];
    const diff = buildChangesDiff(patchEnd.changes);
    if (diff === null) return [];
    const event = {
      v: 1,
      id: `${call.callId}:diff`,
      runId: this.runId,
      ts: call.origin.ts,
      type: "artifact.diff",
      node: call.node,
      ...diff,
      callId: call.callId,
    };
    return [{ event, origin: patchEnd.origin }];
  }
}

/** `mcp__node_repl__` + `js` → `mcp__node_repl__js` (Claude Code's MCP naming); else `namespace.name`. */
function joinNamespace(namespace: string, name: string): string {
  return namespace.endsWith("_") ? `${namespace}${name}` : `${namespace}.${name}`;
}

/** The exit code and output of an `exec_command_end` payload. */
export function readExecEnd(payload: Record<string, unknown>): { exitCode?: number; output?: string } {
  const exitCode = readNumber(payload.exit_code);
  const output = typeof payload.aggregated_output === "string" ? payload.aggregated_output : readString(payload.stdout);
  return { ...(exitCode !== undefined ? { exitCode } : {}), ...(output !== undefined ? { output } : {}) };
}
