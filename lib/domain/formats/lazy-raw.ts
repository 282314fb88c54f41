/**
 * A `raw` text made only when something reads it: storing an event reads it,
 * detecting does not, and re-serialising every record of a document costs as
 * much as parsing it. The getter and setter are the same two functions for
 * every object, the text (or the function that makes it) sits in one hidden
 * slot: objects with a getter closure of their own each get a hidden class of
 * their own, and the garbage collector then spends longer on them than the
 * whole reading took.
 */

const RAW = Symbol("raw text or its maker");

interface WithRaw {
  [RAW]: string | (() => string);
}

const LAZY_RAW: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: WithRaw): string {
    const held = this[RAW];
    if (typeof held === "string") return held;
    const text = held();
    this[RAW] = text;
    return text;
  },
  set(this: WithRaw, value: string): void {
    this[RAW] = value;
  },
};

/**
 * Adds `raw` to `target` as an own, enumerable property whose text `make`
 * gives when first read (then kept; assigning replaces it). Properties added
 * after it keep their place after it, as in an object literal.
 */
export function defineLazyRaw<T extends object>(target: T, make: () => string): T & { raw: string } {
  Object.defineProperty(target, RAW, { value: make, writable: true, configurable: true });
  Object.defineProperty(target, "raw", LAZY_RAW);
  return target as T & { raw: string };
}
