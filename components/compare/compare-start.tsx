import Link from "next/link";
import "./compare.css";

/** What `/compare` compares and how to get there, before anything is picked. */
export function CompareStart() {
  return (
    <section className="panel compare-start" aria-label="How to compare">
      <div className="panel-body">
        <p><strong>Runs side by side</strong> (2 to 4): tick them in the <Link href="/runs">history</Link> and press “Compare”, or open a run and compare it with another attempt at its ticket. The link is <code>/compare?runs=&lt;id&gt;,&lt;id&gt;</code>; the first run is the baseline.</p>
        <p><strong>Two groups of runs</strong>: pick them below. The link reads <code>/compare?a=profile:strict&amp;b=profile:fast&amp;from=2026-11-01&amp;to=2026-11-30</code>.</p>
      </div>
    </section>
  );
}

/** Parts of the link that were not understood. */
export function CompareProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="notice warn" role="alert">
      <p><strong>Part of this link was not understood:</strong></p>
      <ul>{problems.map((p) => <li key={p}>{p}</li>)}</ul>
    </div>
  );
}
