/** The copies without undefined fields keep the spread's keys, values and order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { omitUndefined, withDefinedFields } from "./omit-undefined";

const fields = fc.dictionary(fc.constantFrom("v", "id", "runId", "ts", "node", "tool", "ok", "args"), fc.oneof(fc.constant(undefined), fc.integer(), fc.string()), { maxKeys: 6 });
const sameObject = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b)) && Object.keys(a).every((key) => a[key] !== undefined);

describe("copies without undefined fields", () => {
  it("withDefinedFields(head, fields) equals omitUndefined({ ...head, ...fields })", () => {
    fc.assert(fc.property(fields, fields, (head, rest) => sameObject(withDefinedFields(head, rest), omitUndefined({ ...head, ...rest }))), { seed: 20_261_124, numRuns: 3000 });
  });

  it("keeps the event itself when nothing is undefined, and the order otherwise", () => {
    const event = { v: 1, id: "a", ts: "t" };
    expect(omitUndefined(event)).toBe(event);
    expect(Object.keys(omitUndefined({ v: 1, id: undefined, ts: "t", node: "main" }))).toEqual(["v", "ts", "node"]);
    expect(Object.keys(withDefinedFields({ v: 1, runId: "r" }, { runId: undefined, id: "x" }))).toEqual(["v", "id"]);
  });
});
