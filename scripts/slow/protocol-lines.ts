// Protocol event lines of a chosen size for the slow suite, and files of them
// written in 8 MiB pieces (a 2 GB file is never held in memory).
import { open } from "node:fs/promises";

const NODES = ["planner", "coder", "verifier"];
const START = Date.UTC(2026, 0, 1);

/** Event `seq` of run `run`: node.started / node.completed in turn, padded to about `bytes`. */
export function eventLine(run: number, seq: number, bytes = 1024, prefix = "e"): string {
  const node = NODES[Math.floor(seq / 2) % NODES.length];
  const base = {
    v: 1,
    id: `${prefix}${run}-${seq}`,
    runId: `slow-run-${run}`,
    ts: new Date(START + run * 3_600_000 + seq * 1000).toISOString(),
    type: seq % 2 === 0 ? "node.started" : "node.completed",
    node,
    turn: Math.floor(seq / 6) + 1,
  };
  const extra = seq % 2 === 0 ? {} : { tokens: 100 + (seq % 50), durationMs: 1000 + seq };
  const head = JSON.stringify({ ...base, ...extra, output: { text: "" } });
  const pad = Math.max(0, bytes - head.length);
  // Different text each step, so that no run looks like a loop of identical outputs.
  const text = `step ${seq} of run ${run}: `.concat("lorem ipsum dolor sit amet ".repeat(Math.ceil(pad / 27))).slice(0, pad);
  return JSON.stringify({ ...base, ...extra, output: { text } });
}

/**
 * Writes protocol lines of `runs` runs to `path` until it holds at least
 * `targetBytes`; returns the number of events written. Asynchronous, piece by
 * piece: a minute of synchronous writing would starve the test runner's own
 * messages (vitest reports "Timeout calling onTaskUpdate").
 */
export async function writeProtocolFile(
  path: string, targetBytes: number, opts: { eventsPerRun?: number; lineBytes?: number; prefix?: string } = {},
): Promise<number> {
  const perRun = opts.eventsPerRun ?? 1000;
  const file = await open(path, "w");
  let written = 0;
  let events = 0;
  let piece: string[] = [];
  let pieceBytes = 0;
  try {
    while (written + pieceBytes < targetBytes) {
      const line = eventLine(Math.floor(events / perRun), events % perRun, opts.lineBytes, opts.prefix);
      piece.push(line);
      pieceBytes += line.length + 1;
      events++;
      if (pieceBytes >= 8 << 20) {
        await file.write(`${piece.join("\n")}\n`);
        written += pieceBytes;
        piece = [];
        pieceBytes = 0;
      }
    }
    if (piece.length > 0) await file.write(`${piece.join("\n")}\n`);
  } finally {
    await file.close();
  }
  return events;
}
