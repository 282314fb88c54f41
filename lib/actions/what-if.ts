"use server";

import { z } from "zod";
import { DETECTOR_PRESETS, resolveDetectorConfig } from "@/lib/domain/detector";
import type { WhatIfHalt, WhatIfSummary, RunTotals } from "@/lib/domain/what-if/evaluate-run";
import { getSql } from "@/lib/db/client";
import { runWhatIf } from "@/lib/db/what-if";
import { readDetectorForm } from "./detector-form";
import { RUN_FORMATS } from "@/lib/format/runs-query";
import { authorizeAction } from "@/lib/auth/access";
import { NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";

export interface WhatIfResultRow {
  runId: string;
  title: string | null;
  terminalStatus: string | null;
  status: string;
  currentHaltReason: string | null;
  currentFindings: number;
  findings: number;
  halt: WhatIfHalt | null;
  /** The run's node labels, to name the halt's node or edge. */
  nodeLabels: NodeLabels;
  totals: RunTotals;
  saved: RunTotals;
  falseAlarm: boolean;
  /** A person decided on the run after the point where it would halt (see `WhatIfRunResult`). */
  personDecidedAfterHalt: boolean;
  noLongerHalted: boolean;
}

export interface WhatIfState {
  status: "idle" | "done" | "invalid" | "failed";
  errors: Record<string, string>;
  message: string | null;
  rows: WhatIfResultRow[];
  summary: WhatIfSummary | null;
  truncated: boolean;
  elapsedMs: number;
}

const date = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD").optional().or(z.literal(""));
const FilterSchema = z.object({
  runId: z.string().trim().max(200).optional(),
  status: z.enum(["", "running", "halted", "paused", "done", "stopped", "failed"]).optional(),
  terminalStatus: z.enum(["", "done_success", "done_partial", "aborted_stuck", "aborted_constraint"]).optional(),
  profile: z.string().trim().max(100).optional(),
  format: z.enum(["", ...RUN_FORMATS]).optional(),
  from: date,
  to: date,
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});

/**
 * Re-runs the detector over a filtered set of past runs with another
 * configuration. Read-only: stored findings change only when a person saves a
 * configuration on the settings page.
 */
export async function runWhatIfAction(_prev: WhatIfState, form: FormData): Promise<WhatIfState> {
  const empty: WhatIfState = { status: "invalid", errors: {}, message: null, rows: [], summary: null, truncated: false, elapsedMs: 0 };
  const auth = await authorizeAction("what_if");
  if (!auth.ok) return { ...empty, status: "failed", message: auth.message };
  const read = readDetectorForm(form);
  const filter = FilterSchema.safeParse(Object.fromEntries([...form.entries()].filter(([k]) => k in FilterSchema.shape)));
  const errors: Record<string, string> = read.ok ? {} : { ...read.errors };
  if (!filter.success) for (const issue of filter.error.issues) errors[String(issue.path[0])] = issue.message;
  if (!read.ok || !filter.success) return { ...empty, errors, message: "Some values are not valid." };
  const f = filter.data;
  const day = (s: string | undefined, plus = 0) => (s ? Date.parse(`${s}T00:00:00Z`) + plus : undefined);
  try {
    const report = await runWhatIf(
      await getSql(),
      {
        runId: f.runId || undefined, status: f.status || undefined, terminalStatus: f.terminalStatus || undefined,
        profile: f.profile || undefined, format: f.format || undefined, from: day(f.from), to: day(f.to, 86_400_000), limit: f.limit,
      },
      resolveDetectorConfig(DETECTOR_PRESETS[read.preset], read.overrides),
    );
    return {
      status: "done", errors: {}, message: null, truncated: report.truncated, elapsedMs: report.elapsedMs, summary: report.summary,
      rows: report.rows.map((r) => ({
        runId: r.runId, title: r.title, terminalStatus: r.terminalStatus, status: r.status, currentHaltReason: r.currentHaltReason,
        currentFindings: r.currentFindings, findings: r.findings.length, halt: r.halt, nodeLabels: report.nodeLabels.get(r.runId) ?? NO_LABELS,
        totals: r.totals, saved: r.saved,
        falseAlarm: r.falseAlarm, personDecidedAfterHalt: r.personDecidedAfterHalt, noLongerHalted: r.noLongerHalted,
      })),
    };
  } catch (error) {
    return { ...empty, status: "failed", message: `The re-run failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
