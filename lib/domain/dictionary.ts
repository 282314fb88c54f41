/**
 * An empty object for use as a dictionary keyed by strings that agents wrote
 * (node ids, halt reasons, statuses): it has no prototype, so `__proto__`,
 * `constructor` or `toString` are ordinary keys instead of inherited members.
 * React cannot pass null-prototype objects to client components: hand those
 * `toPlainObject(dict)` instead.
 */
export function createDictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * A plain object with the same entries: spread defines each key as an own data
 * property, so `__proto__` stays an ordinary key here too.
 */
export function toPlainObject<T>(dict: Record<string, T>): Record<string, T> {
  return { ...dict };
}
