// The benchmarks' seeded PRNG (mulberry32): the same seed gives the same corpus
// on every machine. (lib/demo/random.ts is the same generator for the demo's
// TypeScript; these plain-JS scripts run without a TypeScript loader.)

/** Returns a function giving numbers in [0, 1), deterministic for `seed`. */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
