import { createLoopscopeClient, type LoopscopeClient } from "loopscope/client";
import { AgentRun, SDD_GRAPH, type AgentLogEntry, type AgentRunOptions } from "./agent-run";
import { DEMO_SCENARIOS, SCENARIOS, type ScenarioName } from "./scenarios";

export const AGENT_USAGE = `usage: node scripts/demo-agent.js [options]
  --url <url>            Loopscope server (default $LOOPSCOPE_URL or http://127.0.0.1:3000)
  --key <key>            ingest API key (default $LOOPSCOPE_API_KEY)
  --scenarios <a,b,…>    ${Object.keys(SCENARIOS).join(", ")} (default: the demo's mix)
  --run-prefix <prefix>  run ids are <prefix>-<n>-<scenario> (default agent-<time>)
  --attach <runId>       reconnect to a waiting run of --scenarios' one scenario: wait for the decision, then go on
  --pace <ms>            pause between steps (default 600)
  --json                 log JSON lines (what the agent started, halted, received, finished)`;

interface AgentArgs {
  url: string;
  key: string;
  scenarios: ScenarioName[];
  prefix: string;
  attach: string | null;
  paceMs: number;
  json: boolean;
}

export function parseAgentArgs(argv: string[], env: NodeJS.ProcessEnv): AgentArgs {
  const flags = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") json = true;
    else if (a.startsWith("--") && i + 1 < argv.length) flags.set(a.slice(2), argv[++i]);
    else throw new Error(`unexpected argument ${a}\n${AGENT_USAGE}`);
  }
  const key = flags.get("key") ?? env.LOOPSCOPE_API_KEY;
  if (!key) throw new Error(`an API key is needed: --key or LOOPSCOPE_API_KEY (npx loopscope keys create demo-agent)\n${AGENT_USAGE}`);
  const names = flags.get("scenarios")?.split(",").filter(Boolean) ?? [...DEMO_SCENARIOS];
  for (const n of names) if (!(n in SCENARIOS)) throw new Error(`unknown scenario ${n}\n${AGENT_USAGE}`);
  const attach = flags.get("attach") ?? null;
  if (attach && names.length !== 1) throw new Error("--attach needs exactly one scenario in --scenarios");
  const paceMs = Number(flags.get("pace") ?? 600);
  if (!Number.isFinite(paceMs) || paceMs < 0) throw new Error("--pace takes milliseconds >= 0");
  return {
    url: flags.get("url") ?? env.LOOPSCOPE_URL ?? "http://127.0.0.1:3000",
    key, scenarios: names as ScenarioName[], prefix: flags.get("run-prefix") ?? `agent-${Date.now().toString(36)}`,
    attach, paceMs, json,
  };
}

/** Runs one scenario from its start, or (attach) from the decision it waits for. */
export async function runScenario(client: LoopscopeClient, runId: string, name: ScenarioName, attach: boolean, opts: AgentRunOptions): Promise<void> {
  const scenario = SCENARIOS[name];
  const run = new AgentRun(client, runId, opts);
  if (attach) {
    const d = await run.awaitDecision();
    if (!run.endedByPerson(d)) await scenario.resume(run, d);
    return;
  }
  await client.startRun({ runId, title: scenario.title, ticketId: scenario.ticketId, profile: "fast", graph: SDD_GRAPH, budgets: scenario.budgets });
  opts.log({ agent: "started", runId, scenario: name });
  const d = await scenario.work(run);
  if (d && !run.endedByPerson(d)) await scenario.resume(run, d);
}

function describe(e: AgentLogEntry): string {
  switch (e.agent) {
    case "started": return `▶ ${e.runId}: started (${e.scenario})`;
    case "halted": return `⏸ ${e.runId}: halted by the ${e.by} (${e.haltReason ?? "?"}); waiting for a person in Loopscope`;
    case "decision": return `↻ ${e.runId}: ${e.decision.by} decided ${e.decision.action}${e.decision.directive ? ` — "${e.decision.directive}"` : ""}`;
    case "finished": return `■ ${e.runId}: ${e.outcome}`;
  }
}

/** The simulated SDD agent: runs its scenarios side by side against a Loopscope server over HTTP. */
export async function main(argv: string[]): Promise<number> {
  let args: AgentArgs;
  try {
    args = parseAgentArgs(argv, process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const log = (e: AgentLogEntry) => console.log(args.json ? JSON.stringify(e) : `[demo agent] ${describe(e)}`);
  const client = createLoopscopeClient({ url: args.url, apiKey: args.key, onError: (e) => console.error(`[demo agent] ${e.message}`) });
  const stop = new AbortController();
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => stop.abort());
  const runs = args.scenarios.map(async (name, i) => {
    // Staggered, so the runs do not move in lockstep.
    await new Promise((r) => setTimeout(r, i * 700));
    const runId = args.attach ?? `${args.prefix}-${i + 1}-${name}`;
    await runScenario(client, runId, name, args.attach !== null, { paceMs: args.paceMs, log, signal: stop.signal });
  });
  const results = await Promise.allSettled(runs);
  await client.close();
  if (stop.signal.aborted) {
    console.error("[demo agent] stopped; waiting runs keep waiting: decide, then `--attach <runId>` to go on");
    return 0;
  }
  const failed = results.filter((r) => r.status === "rejected");
  for (const f of failed) console.error(`[demo agent] ${(f as PromiseRejectedResult).reason}`);
  return failed.length > 0 ? 1 : 0;
}
