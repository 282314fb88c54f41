"use client";
import { useCallback, useState } from "react";
import { groupRepeats, type RepeatGroup } from "@/lib/domain/graph/group-repeats";

/** How many of the latest hashes a strip shows. */
const SHOWN = 12;
const TONES = 8;

/** Tones go to repeated hashes only, in order of first appearance. */
function repeatTone(groups: readonly RepeatGroup[], hash: string): number {
  const repeated: string[] = [];
  for (const g of groups) if (g.total > 1 && g.hash !== PASSED && !repeated.includes(g.hash)) repeated.push(g.hash);
  return repeated.indexOf(hash);
}

/** A short hash: full on hover, copied whole by its button. */
export function HashChip({ hash, count, tone }: { hash: string; count: number; tone: number | null }) {
  const [copied, setCopied] = useState(false);
  const copy = useCallback(() => {
    void navigator.clipboard?.writeText(hash).then(() => {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1200);
    });
  }, [hash]);
  return (
    <span className={`hash-chip ${tone === null ? "tone-none" : `tone-${tone % TONES}`}${count > 1 ? " is-repeat" : ""}`} data-testid="hash-group" data-count={count}>
      <code title={hash}>{hash.slice(0, 8)}</code>
      {count > 1 ? <span className="hash-count" aria-label={`${count} times in a row`}>×{count}</span> : null}
      <button type="button" className="hash-copy" onClick={copy} aria-label={`Copy ${hash.slice(0, 8)}`} title="Copy the full hash">
        {copied ? (
          "✓"
        ) : (
          <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
            <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" fill="none" stroke="currentColor" />
            <path d="M8.5 2.5V2A1.5 1.5 0 0 0 7 .5H2A1.5 1.5 0 0 0 .5 2v5A1.5 1.5 0 0 0 2 8.5h.5" fill="none" stroke="currentColor" />
          </svg>
        )}
      </button>
    </span>
  );
}

/** Stands for a passing result in a strip of failure signatures: it has no signature, and it breaks a run of repeats. */
const PASSED = "\u0000passed";

/**
 * The latest hashes of one kind, oldest first, repeats in a row grouped into
 * one chip with a count, and every hash seen more than once in its own
 * colour: three identical diffs read as one `×3`. `null` entries are passing
 * verification results (shown as such, they end a run of repeats).
 */
export function HashStrip({ title, hashes, testId }: { title: string; hashes: readonly (string | null)[]; testId: string }) {
  const shown = hashes.slice(-SHOWN).map((h) => h ?? PASSED);
  const groups = groupRepeats(shown);
  const last = groups[groups.length - 1];
  const count = hashes.filter((h) => h !== null).length;
  return (
    <div className="hash-strip" data-testid={testId}>
      <div className="hash-strip-title">
        {title} <span className="h4-sub">{hashes.length > SHOWN ? `latest ${SHOWN} of ${hashes.length}` : count}</span>
      </div>
      {count === 0 ? (
        <div className="muted">none</div>
      ) : (
        <>
          <div className="hash-row">
            {/* Colour marks a hash seen more than once (in a row or not); one-offs stay grey, so a colour never suggests a false repeat. */}
            {groups.map((g) =>
              g.hash === PASSED ? (
                <span key={g.start} className="hash-chip hash-pass" title="A passing result: no failure signature">✓ passed{g.count > 1 ? ` ×${g.count}` : ""}</span>
              ) : (
                <HashChip key={g.start} hash={g.hash} count={g.count} tone={g.total > 1 ? repeatTone(groups, g.hash) : null} />
              ),
            )}
          </div>
          {last && last.count > 1 && last.hash !== PASSED ? <div className="hash-note">The last {last.count} are identical.</div> : null}
        </>
      )}
    </div>
  );
}
