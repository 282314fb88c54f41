import type { LoopEvidence } from "@/lib/domain/formats";

const KIND_LABEL: Record<LoopEvidence["kind"], string> = {
  budget: "budget",
  repeated_command: "repeated command",
  diagnostic: "diagnostic",
};

/** `a `b` c` → text with the back-ticked parts as code (the evidence sentences quote commands). */
function renderInlineCode(text: string) {
  return text.split(/(`[^`]+`)/g).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 1 ? <code key={i}>{part.slice(1, -1)}</code> : <span key={i}>{part}</span>,
  );
}

/** What the report itself says points to a loop: exhausted budgets, repeated commands, recurring diagnostics. */
export function LoopEvidenceList({ items }: { items: LoopEvidence[] }) {
  if (items.length === 0) return null;
  return (
    <div className="loop-evidence" aria-label="Loop evidence in the report">
      <h3>Loop evidence in the report</h3>
      <ul>
        {items.map((e, i) => (
          <li key={i}>
            <span className={`badge ${e.kind === "budget" ? "bad" : "warn"}`}>{KIND_LABEL[e.kind]}</span> {renderInlineCode(e.text)}
          </li>
        ))}
      </ul>
    </div>
  );
}
