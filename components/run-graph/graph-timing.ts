/**
 * User Timing marks of the graph's way onto the screen (`loopscope:<name>`):
 * the browser's performance panel shows them, and bench/graph/run.js reads
 * them to say where a page load's time goes. A mark costs microseconds.
 */
export function markGraphTiming(name: string): void {
  if (typeof performance !== "undefined" && typeof performance.mark === "function") performance.mark(`loopscope:${name}`);
}
