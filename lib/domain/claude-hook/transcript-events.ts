/**
 * The protocol events of a Claude Code transcript as it stands while the
 * session runs, for the hook to send live. The ids are the ones ingesting the
 * finished file gives (the same mapper), so the live run and a later ingest
 * are one run without duplicates.
 */
import { createClaudeCodeMapper } from "../formats/claude-code";
import { splitLinesSync } from "../formats/lines";
import type { LoopEvent } from "../protocol/types";

export interface TranscriptEvents {
  events: LoopEvent[];
  /** Lines the mapper refused (they are the ingest's business; the hook only counts them). */
  errors: number;
}

/**
 * Maps the complete lines of a transcript (a last line without its newline is
 * still being written and is left for the next call).
 *
 * Unless `final` (Stop: the turn is over), what only the end of the source
 * would settle is held back: the node.completed of the model call still open
 * (a longer read gives it its final tokens and text) and a `run.started` not
 * yet titled by a prompt. The server keeps the first copy of an id, so an
 * early, different copy would stay. Tool calls without their result are never
 * emitted by the mapper.
 *
 * @example mapTranscriptEvents(text, { final: false }).events.map((e) => e.id)
 */
export function mapTranscriptEvents(text: string, opts: { final: boolean }): TranscriptEvents {
  const mapper = createClaudeCodeMapper();
  const events: LoopEvent[] = [];
  let errors = 0;
  for (const item of splitLinesSync(text, { emitUnterminatedLast: false })) {
    if ("error" in item) {
      errors++;
      continue;
    }
    if (item.text.trim() === "") continue;
    for (const out of mapper.map(item.text, item.line)) {
      if (out.kind === "event") events.push(out.event);
      else if (out.kind === "error") errors++;
    }
  }
  if (opts.final) for (const out of mapper.end()) if (out.kind === "event") events.push(out.event);
  return { events, errors };
}
