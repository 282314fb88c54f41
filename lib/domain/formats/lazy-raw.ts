/**
 * A `raw` text made only when something reads it: storing an event reads it,
 * detecting does not, and re-serialising every record of a document costs as
 * much as parsing it. The getter and setter are the same two functions for
 * every object, the text (or the function that makes it) sits in one hidden
 * slot: objects with a getter closure of their own each get a hidden class of
 * their own, and the garbage collector then spends longer on them than the
 * whole reading took.
 */

/** A class whose constructor adopts an object made elsewhere as its `this`: a subclass's private fields go on that object. */
class Adopted {
  constructor(target: object) {
    return target as Adopted;
  }
}

/**
 * The hidden slot: a private field added to the object. It is added as a
 * property is (half the cost of defining one with `Object.defineProperty`,
 * which every item of a document paid), and no key, spread, JSON or equality
 * check sees it.
 */
class RawSlot extends Adopted {
  #raw: string | (() => string);

  private constructor(target: object, raw: () => string) {
    super(target);
    this.#raw = raw;
  }

  /** Gives `target` the slot, holding `make`; a target given one before has it replaced. */
  static hold(target: object, make: () => string): void {
    if (#raw in target) (target as RawSlot).#raw = make;
    else new RawSlot(target, make);
  }

  static read(target: RawSlot): string {
    const held = target.#raw;
    if (typeof held === "string") return held;
    const text = held();
    target.#raw = text;
    return text;
  }

  static write(target: RawSlot, value: string): void {
    target.#raw = value;
  }
}

const LAZY_RAW: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: RawSlot): string {
    return RawSlot.read(this);
  },
  set(this: RawSlot, value: string): void {
    RawSlot.write(this, value);
  },
};

/**
 * Adds `raw` to `target` as an own, enumerable property whose text `make`
 * gives when first read (then kept; assigning replaces it). Properties added
 * after it keep their place after it, as in an object literal.
 */
export function defineLazyRaw<T extends object>(target: T, make: () => string): T & { raw: string } {
  RawSlot.hold(target, make);
  Object.defineProperty(target, "raw", LAZY_RAW);
  return target as T & { raw: string };
}

/**
 * A record's JSON text, made when something first reads an event's `raw`.
 * A function, not an arrow written inline in an origin literal: such an arrow
 * is named `raw`, and tsx (which runs the sources) keeps
 * function names by defining `name` on every such closure, one per event.
 */
export function stringifyLater(record: unknown): () => string {
  return () => JSON.stringify(record);
}
