import { hasEdgeLabel, hasNodeLabel, labelEdge, labelNode, type NodeLabels } from "@/lib/domain/graph/node-labels";

/** A node as a person reads it: its label, with its id on hover (just the id when it has no label). */
export function NodeName({ id, labels }: { id: string; labels: NodeLabels }) {
  return hasNodeLabel(labels, id) ? <span className="node-name" title={id}>{labelNode(labels, id)}</span> : <>{id}</>;
}

/** An edge `from->to` as a person reads it (`Implementer → Reviewer`), with its name on hover. */
export function EdgeName({ edge, labels }: { edge: string; labels: NodeLabels }) {
  return hasEdgeLabel(labels, edge) ? <span className="node-name" title={edge}>{labelEdge(labels, edge)}</span> : <>{edge}</>;
}

/** Where a halt fired as a person reads it: its edge, else its node (`null` when it names neither). */
export function HaltPlace({ edge, node, labels }: { edge: string | null; node: string | null; labels: NodeLabels }) {
  if (edge) return <EdgeName edge={edge} labels={labels} />;
  if (node) return <NodeName id={node} labels={labels} />;
  return null;
}
