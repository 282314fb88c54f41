/** One colour per halt reason, the same in every chart. */
const HALT_COLORS: Record<string, string> = {
  stalled: "#b42318",
  repeated_error: "#0e7490",
  budget_exceeded: "#a16207",
  oscillating: "#7c3aed",
  user_stop: "#475569",
};

export function toHaltColor(reason: string): string {
  return Object.hasOwn(HALT_COLORS, reason) ? HALT_COLORS[reason] : "#2453d6";
}
