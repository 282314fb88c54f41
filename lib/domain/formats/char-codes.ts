/**
 * Character classes of regular expressions, tested on one UTF-16 code unit,
 * for the scanners that replace a pattern tried at every position.
 */

/** `\w` of a regular expression without the `u` flag: `[A-Za-z0-9_]`. */
export function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** `\s` of a regular expression (also what `String.prototype.trim` removes). */
export function isSpaceCode(c: number): boolean {
  if (c <= 0xff) return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
