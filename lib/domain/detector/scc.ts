/**
 * Strongly connected components (Tarjan), iterative so that a long chain of
 * nodes cannot overflow the call stack.
 */

/**
 * The strongly connected components of a graph of `count` vertices numbered
 * 0..count-1, each as a list of vertex numbers.
 *
 * @example findStronglyConnected(3, [[1], [0], []]) // [[1, 0], [2]] (order of components unspecified)
 */
export function findStronglyConnected(count: number, successors: readonly (readonly number[])[]): number[][] {
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const components: number[][] = [];
  // Explicit DFS frames: vertex and position in its successor list.
  const frameVertex: number[] = [];
  const frameNext: number[] = [];
  let counter = 0;

  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    enter(root);
    while (frameVertex.length > 0) {
      const top = frameVertex.length - 1;
      const v = frameVertex[top];
      const next = successors[v];
      if (frameNext[top] < next.length) {
        const w = next[frameNext[top]++];
        if (index[w] === -1) enter(w);
        else if (onStack[w] === 1 && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      frameVertex.pop();
      frameNext.pop();
      if (frameVertex.length > 0) {
        const parent = frameVertex[frameVertex.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component);
      }
    }
  }
  return components;

  function enter(v: number): void {
    index[v] = low[v] = counter++;
    stack.push(v);
    onStack[v] = 1;
    frameVertex.push(v);
    frameNext.push(0);
  }
}
