/** 93200 → "1m 33s"; 385300 → "6m 25s"; 420 → "420 ms". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}m ${String(sec).padStart(2, "0")}s`;
}

/** 12345 → "12.3k"; 0 → "—" (agents often do not report tokens). */
export function formatTokens(n: number | null | undefined): string {
  if (!n) return "—";
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** 0.1234 → "$0.12"; 0 → "—". */
export function formatCost(usd: number | null | undefined): string {
  if (!usd) return "—";
  return usd < 0.01 ? `<$0.01` : `$${usd.toFixed(2)}`;
}

/** An instant as `2026-08-12 15:30` in UTC (the same for every viewer of a shared link). */
export function formatInstant(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** A full ISO instant for tooltips. */
export function formatInstantFull(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  return new Date(ms).toISOString();
}

/** "3 min ago" style age of an instant relative to `now`. */
export function formatAge(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** `done_success` → "done success". */
export function humanize(value: string | null | undefined): string {
  return value ? value.replace(/_/g, " ") : "—";
}

/**
 * A run id cut in two for a table row: the head gives way (an ellipsis, in
 * CSS) when the row is narrow, the tail always shows. Runs of one agent or
 * batch share a prefix and differ at the end (`…-3-repeated-failure`,
 * `…astropy-13398`), so the end is what tells them apart.
 */
export function splitIdTail(id: string, tail = 14): { head: string; tail: string } {
  let cut = Math.max(Math.ceil(id.length / 2), id.length - tail);
  // Never between the two halves of a surrogate pair (an emoji would become two broken characters).
  const code = id.charCodeAt(cut);
  if (cut < id.length && code >= 0xdc00 && code <= 0xdfff) cut++;
  return { head: id.slice(0, cut), tail: id.slice(cut) };
}

/**
 * A stop reason as a person reads it. Runtimes and Loopscope's own decisions
 * start it with a protocol code (`user_stop: stopped by ada`, `budget_exceeded
 * after 40 steps`): the code is written out, and dropped when the words after it
 * already say the same ("stopped by ada").
 */
export function formatStopReason(reason: string): string {
  const m = /^([a-z]+(?:_[a-z]+)+)(?::\s*|\s+)(.*)$/s.exec(reason);
  if (!m) return reason;
  const [, code, rest] = m;
  const text = code === "user_stop" && /^stopped by\b/i.test(rest) ? rest : `${humanize(code)}${reason.charAt(code.length) === ":" ? ":" : ""} ${rest}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An event's instant as `15:30:04.123` UTC (the timeline's date is the run's). */
export function formatEventTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return new Date(ms).toISOString().slice(11, 23);
}

export { formatCount, formatCountOf } from "@/lib/domain/numbers";

const DURATION_UNIT_MS = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/**
 * A lifetime as people type it on a command line: "2w", "7d", "36h", "90m", a bare
 * number of days; null when it is not one. `parseDurationMs("12h") === 43_200_000`.
 */
export function parseDurationMs(value: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(w|d|h|m)?$/i.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * DURATION_UNIT_MS[(m[2] ?? "d").toLowerCase() as keyof typeof DURATION_UNIT_MS];
}
