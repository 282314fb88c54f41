/**
 * SVG paths for the drawn edges: ELK's polyline with rounded corners, and a
 * loop for a self-edge that has no route. Pure geometry, client-safe.
 */
import type { Point } from "./prepare-layout";

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * A polyline as an SVG path, each bend rounded with a quadratic curve of at
 * most `radius` (less on short segments, so curves never overshoot).
 *
 * @example toRoundedPath([{x:0,y:0},{x:10,y:0},{x:10,y:10}], 4) // "M0 0 L6 0 Q10 0 10 4 L10 10"
 */
export function toRoundedPath(points: readonly Point[], radius = 8): string {
  if (points.length === 0) return "";
  let d = `M${round(points[0].x)} ${round(points[0].y)}`;
  for (let i = 1; i < points.length; i++) {
    const p = points[i];
    const next = points[i + 1];
    if (!next) {
      d += ` L${round(p.x)} ${round(p.y)}`;
      break;
    }
    const prev = points[i - 1];
    const inLen = Math.hypot(p.x - prev.x, p.y - prev.y);
    const outLen = Math.hypot(next.x - p.x, next.y - p.y);
    const r = Math.min(radius, inLen / 2, outLen / 2);
    if (r <= 0) {
      d += ` L${round(p.x)} ${round(p.y)}`;
      continue;
    }
    const a = { x: p.x - ((p.x - prev.x) / inLen) * r, y: p.y - ((p.y - prev.y) / inLen) * r };
    const b = { x: p.x + ((next.x - p.x) / outLen) * r, y: p.y + ((next.y - p.y) / outLen) * r };
    d += ` L${round(a.x)} ${round(a.y)} Q${round(p.x)} ${round(p.y)} ${round(b.x)} ${round(b.y)}`;
  }
  return d;
}

/**
 * A self-loop drawn above a node, from its right handle back to its left
 * one, when ELK gave no route (it always does for a fresh layout; a cached
 * or pending one may lack a new edge).
 */
export function toSelfLoopPath(source: Point, target: Point, lift = 46): { path: string; label: Point } {
  const top = Math.min(source.y, target.y) - lift;
  const path = `M${round(source.x)} ${round(source.y)} C${round(source.x + 40)} ${round(top)} ${round(target.x - 40)} ${round(top)} ${round(target.x)} ${round(target.y)}`;
  return { path, label: { x: (source.x + target.x) / 2, y: top + lift * 0.25 } };
}
