/**
 * Keyboard moves on the drawn graph: from the focused node, an arrow key goes
 * to the connected node (either direction of edge) that lies that way.
 */
import type { NodeBox } from "./prepare-layout";

export type ArrowDirection = "left" | "right" | "up" | "down";

const UNIT: Record<ArrowDirection, [number, number]> = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

/** Maps `ArrowLeft` etc. to a direction; `null` for other keys. */
export function readArrowKey(key: string): ArrowDirection | null {
  switch (key) {
    case "ArrowLeft": return "left";
    case "ArrowRight": return "right";
    case "ArrowUp": return "up";
    case "ArrowDown": return "down";
    default: return null;
  }
}

/**
 * The neighbour of `from` the arrow points at: among nodes joined to it by an
 * edge whose centre lies ahead in that direction, the one nearest to the
 * line of sight (sideways distance weighs double). `null` when none is ahead.
 *
 * @example findNeighbour("planner", "right", edges, boxes) // "researcher"
 */
export function findNeighbour(
  from: string,
  direction: ArrowDirection,
  edges: readonly { source: string; target: string }[],
  boxes: Readonly<Record<string, NodeBox>>,
): string | null {
  const origin = boxes[from];
  if (!origin) return null;
  const [dx, dy] = UNIT[direction];
  const ox = origin.x + origin.width / 2;
  const oy = origin.y + origin.height / 2;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const e of edges) {
    const other = e.source === from ? e.target : e.target === from ? e.source : null;
    if (other === null || other === from) continue;
    const box = boxes[other];
    if (!box) continue;
    const vx = box.x + box.width / 2 - ox;
    const vy = box.y + box.height / 2 - oy;
    const along = vx * dx + vy * dy;
    if (along <= 0) continue;
    const aside = Math.abs(vx * dy - vy * dx);
    const score = along + 2 * aside;
    if (score < bestScore || (score === bestScore && best !== null && other < best)) {
      best = other;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Where a big graph opens: on its first halted node (where the run got
 * stuck), else on its first node; `null` for a graph small enough to show
 * whole at a readable size.
 *
 * @example findOpeningNodes(view, 40) // ["loop:c_0123456789ab"]
 */
export function findOpeningNodes(view: { nodes: readonly { id: string; halts: readonly unknown[] }[] }, wholeUpTo: number): string[] | null {
  if (view.nodes.length <= wholeUpTo) return null;
  const halted = view.nodes.find((n) => n.halts.length > 0) ?? view.nodes[0];
  return halted ? [halted.id] : null;
}
