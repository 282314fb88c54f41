/**
 * Events built by the transcript mappers name optional fields whose value may
 * be undefined; the protocol leaves such fields out. A copy without them, in
 * the same key order, is cheaper than deleting them: an object that loses a
 * property in the middle becomes a slow dictionary for everything that reads
 * it afterwards (validation, the detector, serialising it for storage).
 */

/** `event` itself when no field is undefined, else a copy without those fields (same key order). */
export function omitUndefined<T extends Record<string, unknown>>(event: T): T {
  let keep = true;
  for (const key in event) {
    if (event[key] === undefined) {
      keep = false;
      break;
    }
  }
  if (keep) return event;
  const copy: Record<string, unknown> = {};
  for (const key in event) {
    const value = event[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy as T;
}

/** `omitUndefined` of the event and of each node its `graph` declares. */
export function omitUndefinedWithGraph<T extends Record<string, unknown>>(event: T): T {
  const out = omitUndefined(event);
  const graph = out.graph as { nodes?: Record<string, unknown>[] } | undefined;
  if (graph?.nodes !== undefined) graph.nodes = graph.nodes.map((node) => omitUndefined(node));
  return out;
}

/**
 * `omitUndefined({ ...head, ...fields })` without the intermediate copy: the
 * event of a document reader is its envelope (`head`) and the fields a step
 * gave (the rare head with an undefined field, or a field of `fields` that
 * is undefined and names a key of `head`, take the spread itself).
 */
export function withDefinedFields(head: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in head) {
    if (head[key] === undefined) return omitUndefined({ ...head, ...fields });
    out[key] = head[key];
  }
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
    else if (key in out) return omitUndefined({ ...head, ...fields });
  }
  return out;
}
