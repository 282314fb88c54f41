import type { ParsedEvent, ParseItem } from "../types";
import { createCodexMapper } from "../codex";

/** Maps lines as a rollout file of them would be (1-based line numbers), then ends the file. */
export function mapLines(lines: string[], sourceKey?: string): ParseItem[] {
  const mapper = createCodexMapper(sourceKey);
  const items: ParseItem[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== "") items.push(...mapper.map(line, i + 1));
  });
  return [...items, ...mapper.end()];
}
export const mapText = (text: string) => mapLines(text.split("\n"));
export const parsedOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
export const eventsOf = (items: ParseItem[]) => parsedOf(items).map((e) => e.event);
export const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.type === type);
export const byId = (items: ParseItem[], id: string) => parsedOf(items).find((e) => e.event.id === id);
