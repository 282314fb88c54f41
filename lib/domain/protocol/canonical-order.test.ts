/** Keys and failing ids are sorted by insertion when few: in the order `Array.prototype.sort` gives. */
import fc from "fast-check";
import { describe, it } from "vitest";
import { sortFailingIds, toCanonicalJson } from "./hashes";

function canonicalBySort(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalBySort).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonicalBySort(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("a", "B", "é", "\u{1F600}", "10", "9", "_"));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(key, tie("node"), { maxKeys: 20 })),
})).node;

describe("canonical order", () => {
  it("sorts object keys as Array.prototype.sort does", () => {
    fc.assert(fc.property(value, (v) => toCanonicalJson(v) === canonicalBySort(v)), { seed: 20_261_124, numRuns: 2000 });
  });

  it("sorts failing ids as Array.prototype.sort does", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 30 }), (ids) => JSON.stringify(sortFailingIds(ids)) === JSON.stringify([...new Set([...ids].sort())])),
      { seed: 20_261_124, numRuns: 2000 },
    );
  });
});
