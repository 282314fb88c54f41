import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { AgentLogEntry } from "./agent-run";

/**
 * The demo agent as a separate Node.js process (`scripts/demo-agent.js
 * --json`), for end-to-end tests: what it logged, as it happens, so a test
 * can assert from the agent's side what it received.
 */
export class AgentProcess {
  readonly entries: AgentLogEntry[] = [];
  readonly exited: Promise<number | null>;
  private stderrText = "";
  private readonly listeners = new Set<() => void>();
  private readonly child: ChildProcess;

  private constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, ["scripts/demo-agent.js", "--json", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    createInterface({ input: this.child.stdout! }).on("line", (line) => {
      try {
        this.entries.push(JSON.parse(line) as AgentLogEntry);
      } catch {
        this.stderrText += `(stdout) ${line}\n`;
      }
      for (const l of this.listeners) l();
    });
    this.child.stderr!.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString();
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => {
      resolve(code);
      for (const l of this.listeners) l();
    }));
  }

  /** Starts the agent with the given command-line options (see `node scripts/demo-agent.js --help`). */
  static start(args: string[], cwd = process.cwd()): AgentProcess {
    return new AgentProcess(args, cwd);
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** The first log entry matching `test`, waiting for it up to `timeoutMs`. */
  waitFor<E extends AgentLogEntry>(test: (e: AgentLogEntry) => e is E, timeoutMs?: number): Promise<E>;
  waitFor(test: (e: AgentLogEntry) => boolean, timeoutMs?: number): Promise<AgentLogEntry>;
  waitFor(test: (e: AgentLogEntry) => boolean, timeoutMs = 60_000): Promise<AgentLogEntry> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.entries.find(test);
        if (found) return finish(() => resolve(found));
        if (this.child.exitCode !== null) finish(() => reject(new Error(`the agent exited (${this.child.exitCode}) first:\n${this.stderrText}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no matching agent log entry in ${timeoutMs} ms; log:\n${JSON.stringify(this.entries)}\n${this.stderrText}`))), timeoutMs);
      const finish = (then: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        then();
      };
      this.listeners.add(check);
      check();
    });
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }
}
