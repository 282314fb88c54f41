import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** One tool call of a transcript: its tool_use and the line that carries its result. */
export interface ReplayPair {
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  /** 0-based index of the assistant line with the tool_use. */
  useLine: number;
  /** 0-based index of the user line with the tool_result. */
  resultLine: number;
  isError: boolean;
  /** The tool_result's text. */
  output: string;
}

export type HookCall = (input: Record<string, unknown>) => Promise<Record<string, unknown> | null>;

/**
 * A real Claude Code transcript played again as the session wrote it, into a
 * file that grows line by line under a new session id (so every replay is a
 * run of its own), with its sub-agents' transcripts appearing when the
 * session reaches them. Tests drive the hook with it as Claude Code would.
 */
export class TranscriptReplay {
  readonly transcriptPath: string;
  readonly lines: string[];
  readonly pairs: ReplayPair[];
  private written = 0;
  private readonly subagents: { from: string; to: string; firstTs: string }[];
  private readonly rename: (text: string) => string;

  constructor(source: string, dir: string, readonly sessionId: string) {
    const original = basename(source, ".jsonl");
    this.rename = (text) => text.split(original).join(sessionId);
    this.lines = readFileSync(source, "utf8").split("\n").filter((l) => l.trim() !== "").map(this.rename);
    this.transcriptPath = join(dir, `${sessionId}.jsonl`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(this.transcriptPath, "");
    this.pairs = listPairs(this.lines);
    const subDir = join(dirname(source), original, "subagents");
    const files = existsSync(subDir) ? readdirSync(subDir).filter((f) => f.endsWith(".jsonl")).sort() : [];
    this.subagents = files.map((f) => {
      const first = JSON.parse(readFileSync(join(subDir, f), "utf8").split("\n")[0]) as { timestamp?: string };
      return { from: join(subDir, f), to: join(dir, sessionId, "subagents", f), firstTs: first.timestamp ?? "" };
    });
  }

  /** Lines written so far. */
  get position(): number {
    return this.written;
  }

  /** Appends the lines up to and including `index`; sub-agent transcripts started by then appear too. */
  writeThrough(index: number): void {
    if (index < this.written) return;
    appendFileSync(this.transcriptPath, `${this.lines.slice(this.written, index + 1).join("\n")}\n`);
    this.written = index + 1;
    const now = lastTimestamp(this.lines.slice(0, this.written));
    for (const s of this.subagents) {
      if (s.firstTs > now || existsSync(s.to)) continue;
      mkdirSync(dirname(s.to), { recursive: true });
      writeFileSync(s.to, this.rename(readFileSync(s.from, "utf8")));
    }
  }

  /** The hook's stdin for an event, as Claude Code writes it. */
  input(event: string, pair?: ReplayPair, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const base = { session_id: this.sessionId, transcript_path: this.transcriptPath, cwd: "/home/USER/projects/spotter", permission_mode: "default", hook_event_name: event };
    if (!pair) return { ...base, ...extra };
    return { ...base, tool_name: pair.toolName, tool_input: pair.toolInput, tool_use_id: pair.toolUseId, ...extra };
  }
}

function lastTimestamp(lines: string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /"timestamp":"([^"]+)"/.exec(lines[i]);
    if (m) return m[1];
  }
  return "";
}

function listPairs(lines: string[]): ReplayPair[] {
  const uses = new Map<string, { name: string; input: unknown; line: number }>();
  const pairs: ReplayPair[] = [];
  lines.forEach((text, line) => {
    const record = JSON.parse(text) as { type?: string; isSidechain?: boolean; message?: { content?: unknown } };
    const content = Array.isArray(record.message?.content) ? (record.message.content as Record<string, unknown>[]) : [];
    for (const block of content) {
      if (record.type === "assistant" && block.type === "tool_use") uses.set(String(block.id), { name: String(block.name), input: block.input, line });
      if (record.type === "user" && block.type === "tool_result") {
        const use = uses.get(String(block.tool_use_id));
        if (!use) continue;
        const output = typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
        pairs.push({ toolUseId: String(block.tool_use_id), toolName: use.name, toolInput: use.input, useLine: use.line, resultLine: line, isError: block.is_error === true, output });
      }
    }
  });
  return pairs;
}

export interface ReplayStep {
  pair: ReplayPair;
  pre: Record<string, unknown> | null;
  post: Record<string, unknown> | null;
}

/**
 * The first tool call of the real session's repeated failing commit (the
 * dialyzer check of its pre-commit hook fails it at lines 1338, 1361, 1414,
 * 1442 and 1458 of the spotter transcript; PROVENANCE.md: lines 1338–1463).
 * Replays start there, the lines before it arriving at once: each hook call
 * is a new Node.js process, and all 150 earlier tool calls would take minutes.
 */
export function findRepeatedCommit(pairs: readonly ReplayPair[]): number {
  const at = pairs.findIndex(isRepeatedCommitFailure);
  if (at < 0) throw new Error("the transcript has no failing commit stopped by dialyzer");
  return at;
}

/** One try of that commit: `git commit` failed by dialyzer first (an earlier commit fails credo first, with dialyzer further down). */
export function isRepeatedCommitFailure(p: ReplayPair): boolean {
  // The pre-commit script printed a literal "\n".
  return p.isError && /^git add -A && git commit/.test(String((p.toolInput as { command?: unknown }).command)) && p.output.startsWith("Pre-commit validation failed:\\n\\n[DIALYZER]");
}

/**
 * Plays the session from `pairs[from]` on: the lines before it at once (a
 * session that resumes with the hook installed: SessionStart), then for each
 * tool call PreToolUse before its result is written and PostToolUse after,
 * until a PreToolUse denies the call. Returns every step, the denied one last
 * (its `post` is null), or all of them when nothing was denied.
 */
export async function replayUntilDenied(replay: TranscriptReplay, call: HookCall, from: number): Promise<{ start: Record<string, unknown> | null; steps: ReplayStep[] }> {
  const pairs = replay.pairs.slice(from);
  replay.writeThrough(replay.pairs[from].useLine - 1);
  const start = await call(replay.input("SessionStart", undefined, { source: "resume" }));
  const steps: ReplayStep[] = [];
  for (const pair of pairs) {
    replay.writeThrough(pair.resultLine - 1);
    const pre = await call(replay.input("PreToolUse", pair));
    const step: ReplayStep = { pair, pre, post: null };
    steps.push(step);
    if (isDenied(pre)) break;
    replay.writeThrough(pair.resultLine);
    step.post = await call(replay.input("PostToolUse", pair, { tool_response: { is_error: pair.isError } }));
  }
  return { start, steps };
}

/** The PreToolUse answer that refuses the call. */
export function isDenied(output: Record<string, unknown> | null): boolean {
  const specific = output?.hookSpecificOutput as Record<string, unknown> | undefined;
  return specific?.permissionDecision === "deny";
}
