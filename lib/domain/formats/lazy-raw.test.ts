/**
 * A lazy `raw` must look like the plain property it stands for: own,
 * enumerable, in its place among the keys, seen by spreads and JSON, and made
 * once, when first read.
 */
import { describe, expect, it } from "vitest";
import { defineLazyRaw } from "./lazy-raw";

describe("defineLazyRaw", () => {
  it("is an own enumerable property in its place, made once when first read", () => {
    let made = 0;
    const item = defineLazyRaw({ kind: "event", line: 3 }, () => `text ${++made}`);
    Object.assign(item, { format: "codex" });
    expect(made).toBe(0);
    expect(Object.keys(item)).toEqual(["kind", "line", "raw", "format"]);
    expect(Object.getOwnPropertySymbols(item)).toEqual([]);
    expect(item.raw).toBe("text 1");
    expect(item.raw).toBe("text 1");
    expect(made).toBe(1);
    expect(JSON.stringify(item)).toBe('{"kind":"event","line":3,"raw":"text 1","format":"codex"}');
    expect({ ...item }).toEqual({ kind: "event", line: 3, raw: "text 1", format: "codex" });
    expect(item).toEqual({ kind: "event", line: 3, raw: "text 1", format: "codex" });
  });

  it("takes an assigned text, and a second maker on the same object", () => {
    const item = defineLazyRaw({ kind: "event" }, () => "first");
    item.raw = "assigned";
    expect(item.raw).toBe("assigned");
    defineLazyRaw(item, () => "second");
    expect(item.raw).toBe("second");
    expect(Object.keys(item)).toEqual(["kind", "raw"]);
  });
});
