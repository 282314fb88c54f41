import { homedir } from "node:os";
import { join, relative, sep } from "node:path";

/** A place in or for a project where an agent Loopscope reads leaves its traces. */
export interface AgentFolder {
  /** Absolute path (a folder, or a file an agent appends to). */
  path: string;
  /** Who writes there, for the terminal. */
  agent: string;
}

/**
 * Claude Code keeps a project's sessions in `~/.claude/projects/<name>`, the
 * name being the project's path with every character but letters and digits
 * turned into `-` (`/home/ada/shop-api` → `-home-ada-shop-api`).
 */
export function toClaudeProjectName(projectDir: string): string {
  return projectDir.replace(/[^a-zA-Z0-9]/g, "-");
}

/**
 * Where the agents Loopscope reads write for the project in `projectDir`,
 * present or not yet (a watch picks a folder up once the agent creates it):
 * SDD's run reports, Aider's chat history, Claude Code's sessions of this
 * project. Codex keeps every project's sessions in one folder
 * (`~/.codex/sessions`), so it is watched only when named.
 */
export function findAgentFolders(projectDir: string, env: Readonly<Record<string, string | undefined>> = process.env, home = homedir()): AgentFolder[] {
  const claudeDir = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
  return [
    { path: join(projectDir, ".sdd", "runs"), agent: "SDD run reports" },
    { path: join(projectDir, ".aider.chat.history.md"), agent: "Aider" },
    { path: join(claudeDir, "projects", toClaudeProjectName(projectDir)), agent: "Claude Code" },
  ];
}

/** A path as the person reads it: relative to the project when inside it, `~/…` when under home. */
export function displayPath(path: string, projectDir: string, home = homedir()): string {
  const inProject = relative(projectDir, path);
  if (inProject === "") return ".";
  if (!inProject.startsWith("..") && !inProject.startsWith(sep)) return inProject;
  const inHome = relative(home, path);
  if (home && !inHome.startsWith("..") && !inHome.startsWith(sep)) return join("~", inHome);
  return path;
}
