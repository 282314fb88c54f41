/**
 * Characters that change how text around them is displayed without being
 * seen: bidirectional embeddings, overrides and isolates (the "Trojan Source"
 * set), zero-width spaces and joiners, word joiner, BOM, soft hyphen and the
 * invisible math operators. Agent-written text (titles, node names) could use
 * them to make one thing look like another.
 */
const INVISIBLE = /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/gu;

/**
 * Shows every invisible formatting character as its code point, so agent text
 * cannot reorder or hide what a reader sees:
 * `revealInvisible("a\u202Eb") === "a⟨U+202E⟩b"`.
 */
export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

/** True when the text holds a character `revealInvisible` would show. */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}
