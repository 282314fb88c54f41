/**
 * Property tests of every parser, reached the way ingest reaches them
 * (`parseSource`): valid samples of each format (`fuzz-samples.ts`), damaged
 * at random (`fuzz-mutators.ts`). `npm test` runs them with a fixed seed and a
 * few hundred cases; `npm run fuzz` runs many more with a fresh seed, printed
 * so that a failure can be replayed: `FUZZ_SEED=<seed> FUZZ_RUNS=<n> npm run fuzz`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DETECT_MAX_BYTES, detectFormat } from "./detect-format";
import { FUZZ_SAMPLES, type FuzzSample } from "./fuzz-samples";
import { applyMutations, junkLine, mutation } from "./fuzz-mutators";
import { parseSource, UNSUPPORTED_FORMAT_MESSAGE, type ParseSourceFormat, type SourceItem } from "./parse-source";
import type { ParsedEvent } from "./types";

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? "0");
const FUZZING = Number.isInteger(FUZZ_RUNS) && FUZZ_RUNS > 0;
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : FUZZING ? Math.floor(Math.random() * 2 ** 31) : 20_260_511;
if (FUZZING || process.env.FUZZ_SEED !== undefined) {
  console.log(`fuzz: seed ${SEED}, ${FUZZING ? FUZZ_RUNS : "default"} runs per property; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${FUZZ_RUNS || 300} npm run fuzz`);
}
/** fast-check settings: a modest fixed number of cases in `npm test`, `FUZZ_RUNS` when fuzzing. */
const settings = (runs: number) => ({ seed: SEED, numRuns: FUZZING ? FUZZ_RUNS : runs });
/** Room for `FUZZ_RUNS` cases of up to a few megabytes each. */
const TIMEOUT = FUZZING ? Math.max(60_000, FUZZ_RUNS * 60) : 30_000;

/**
 * The time bound of one parse: generous and proportional to the input (a hang
 * or a quadratic blow-up exceeds it). Measured in CPU time of this process,
 * not wall-clock time (other processes on the machine do not count), and
 * over the best of three tries when the first is over (a garbage collection
 * can pause one; a parser that is too slow is slow every time).
 */
const MS_PER_KIB = 50;
const MS_FLOOR = 100;
const timeBound = (bytes: number) => MS_FLOOR + MS_PER_KIB * (bytes / 1024);

/** Errors of a whole source, not of a line: the only ones with `line: null` outside JSON documents. */
const isWholeSourceError = (message: string) =>
  message === "binary file" || message === UNSUPPORTED_FORMAT_MESSAGE || /^document is over the .* limit$/.test(message);
/**
 * Formats that may be read as one JSON document (OpenHands: its GUI export; `unknown`: JSON of no
 * shape Loopscope reads): their problems name a record (`trajectory[3]`), not a line.
 */
const DOCUMENT_FORMATS = new Set(["json-document", "swe-agent", "mini-swe-agent", "otel-genai", "openhands", "unknown"]);

const encoder = new TextEncoder();
const FORMATS: ParseSourceFormat[] = ["protocol", "sdd-events", "workflow-events", "claude-code", "codex", "openhands", "swe-agent", "mini-swe-agent", "aider", "otel-genai", "sdd-report", "retrospectives"];

async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncIterable<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

interface Parsed {
  items: SourceItem[];
  format: string | undefined;
  ms: number;
}

async function parseBytes(bytes: Uint8Array, sample: FuzzSample, sizes: readonly number[] = [bytes.length || 1], format?: ParseSourceFormat): Promise<Parsed> {
  let detected: string | undefined;
  const items: SourceItem[] = [];
  const started = process.cpuUsage();
  const source = chunked(bytes, sizes);
  for await (const item of parseSource(source, { sourceKey: sample.sourceKey, sourceFolder: sample.sourceFolder, format, onFormat: (f) => (detected = f) })) {
    items.push(item);
  }
  const used = process.cpuUsage(started);
  return { items, format: detected ?? format, ms: (used.user + used.system) / 1000 };
}

/** CPU milliseconds of the parse: the first try's, or the best of three when the first is over `bound`. */
async function measureParse(first: Parsed, bound: number, again: () => Promise<Parsed>): Promise<number> {
  let best = first.ms;
  for (let i = 0; i < 2 && best >= bound; i++) best = Math.min(best, (await again()).ms);
  return best;
}

const eventsOf = (items: SourceItem[]) => items.filter((i): i is ParsedEvent & SourceItem => i.kind === "event");
const withoutOffsets = (items: SourceItem[]) => items.map(({ endOffset: _endOffset, ...rest }) => rest);

function countLines(bytes: Uint8Array): number {
  let count = 1;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/** What every parse must give, whatever its input: well-formed items that can be stored, errors at their line. */
function expectWellFormed({ items, format }: Parsed, bytes: Uint8Array): void {
  const lines = countLines(bytes);
  const inRange = (line: number) => Number.isInteger(line) && line >= 1 && line <= lines;
  for (const item of items) {
    // Stored as JSON: an item that cannot be serialised (too deep, a BigInt, a cycle) would fail its batch.
    expect(() => JSON.stringify(item)).not.toThrow();
    if (item.kind === "error") {
      expect(typeof item.message === "string" && item.message.length > 0, "an error says what is wrong").toBe(true);
      if (item.line === null) {
        expect(isWholeSourceError(item.message) || DOCUMENT_FORMATS.has(format ?? "unknown"), `line-less error in ${format}: ${item.message}`).toBe(true);
      } else {
        expect(inRange(item.line), `error line ${item.line} of ${lines}: ${item.message}`).toBe(true);
      }
    } else if (item.kind === "event") {
      const e = item.event;
      expect([typeof e.id, typeof e.runId, typeof e.type, typeof e.ts]).toEqual(["string", "string", "string", "string"]);
      expect(e.id.length > 0 && e.runId.length > 0).toBe(true);
      if (item.line !== null) expect(inRange(item.line), `event line ${item.line} of ${lines}`).toBe(true);
    } else {
      expect(item.kind).toBe("run");
      expect(typeof item.runId).toBe("string");
    }
  }
}

describe("fuzz samples", () => {
  it.each(FUZZ_SAMPLES.map((s) => [s.name, s] as const))("%s is read as its format, without errors", async (_name, sample) => {
    const bytes = encoder.encode(sample.text);
    const parsed = await parseBytes(bytes, sample);
    expect(parsed.format).toBe(sample.format);
    expect(parsed.items.filter((i) => i.kind === "error")).toEqual([]);
    expect(parsed.items.filter((i) => i.kind !== "error").length).toBeGreaterThan(0);
    expectWellFormed(parsed, bytes);
  });
});

describe("parseSource on damaged input, every format", () => {
  const sample = fc.constantFrom(...FUZZ_SAMPLES);
  const sizes = fc.oneof(fc.constant([1 << 20]), fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 6 }));
  // Mostly detected; sometimes forced to its own or another format (a resumed watcher, a mislabelled upload).
  const forced = fc.option(fc.constantFrom(...FORMATS), { freq: 4 });

  it(
    "never throws, ends within its time bound, and names the line of every error",
    async () => {
      await fc.assert(
        fc.asyncProperty(sample, fc.array(mutation, { minLength: 1, maxLength: 4 }), sizes, forced, async (s, mutations, cut, format) => {
          const bytes = applyMutations(s.text, mutations);
          const parsed = await parseBytes(bytes, s, cut, format ?? undefined);
          const ms = await measureParse(parsed, timeBound(bytes.length), () => parseBytes(bytes, s, cut, format ?? undefined));
          expect(ms, `CPU ms for ${bytes.length} bytes`).toBeLessThan(timeBound(bytes.length));
          expectWellFormed(parsed, bytes);
        }),
        settings(400),
      );
    },
    TIMEOUT,
  );

  it(
    "gives the same items however the damaged input is cut into chunks",
    async () => {
      await fc.assert(
        fc.asyncProperty(sample, fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 4 }), async (s, mutations, cut) => {
          const bytes = applyMutations(s.text, mutations);
          if (bytes.length > 64 * 1024) return;
          const whole = await parseBytes(bytes, s);
          const pieces = await parseBytes(bytes, s, cut);
          expect(pieces.format).toBe(whole.format);
          expect(withoutOffsets(pieces.items)).toEqual(withoutOffsets(whole.items));
        }),
        settings(100),
      );
    },
    TIMEOUT,
  );
});

describe("JSON-lines formats: bad lines among good ones", () => {
  const lineSamples = FUZZ_SAMPLES.filter((s) => s.lines);
  /** Formats whose events carry the source's own ids; the others number them by line (`formats.md`). */
  const OWN_IDS = new Set(["protocol JSONL", "graph-workflow events", "Claude Code", "OpenHands output.jsonl"]);
  // One physical line, without NUL or invalid UTF-8 in the first 64 KiB (those make a file binary, by design).
  const badLine = junkLine.filter((j) => !j.includes("\n") && !j.includes("\u0000"));
  const MARKDOWN_FORMATS = new Set(["sdd-report", "retrospectives", "aider"]);
  const insertion = fc.record({ at: fc.nat({ max: 1_000 }), text: badLine });

  it(
    "yields every event of the valid sample, with the same ids, and errors only at the bad lines",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...lineSamples), fc.array(insertion, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 512 }), async (s, inserts, chunk) => {
          const lines = s.text.replace(/\n$/, "").split("\n");
          const bad: string[] = lines.slice();
          const blank: string[] = lines.slice();
          const placed: { line: number; text: string }[] = [];
          for (const { at, text } of inserts) {
            const i = at % (bad.length + 1);
            bad.splice(i, 0, text);
            blank.splice(i, 0, "");
            for (const p of placed) if (p.line > i) p.line++;
            placed.push({ line: i + 1, text });
          }
          // Before the first JSON line, a JSON array, a markdown heading of a supported format, or more junk
          // than JSON lines decide the format, by design (detect-format.ts).
          const first = bad.find((l) => l.trim() !== "")?.trim() ?? "";
          const junkFirst = !first.startsWith("{");
          fc.pre(!junkFirst || (!first.startsWith("[") && inserts.length < lines.length && placed.every((p) => !MARKDOWN_FORMATS.has(detectFormat(p.text)))));
          const badBytes = encoder.encode(bad.join("\n") + "\n");
          fc.pre(badBytes.subarray(0, DETECT_MAX_BYTES).indexOf(0) === -1);
          const withBad = await parseBytes(badBytes, s, [chunk]);
          // The same lines, the bad ones blank: ids that number lines stay put.
          const reference = await parseBytes(encoder.encode(blank.join("\n") + "\n"), s);
          const original = await parseBytes(encoder.encode(s.text), s);
          expect(withBad.format).toBe(s.format);
          expect(withoutOffsets(eventsOf(withBad.items))).toEqual(withoutOffsets(eventsOf(reference.items)));
          const ids = (p: Parsed) => eventsOf(p.items).map((e) => e.event.id);
          expect(ids(withBad).length).toBe(ids(original).length);
          if (OWN_IDS.has(s.name)) expect(ids(withBad)).toEqual(ids(original));
          expect(eventsOf(withBad.items).map((e) => [e.event.type, e.event.runId])).toEqual(eventsOf(original.items).map((e) => [e.event.type, e.event.runId]));
          const badLines = new Set(placed.map((p) => p.line));
          const errorLines = withBad.items.flatMap((i) => (i.kind === "error" ? [i.line] : []));
          for (const line of errorLines) expect(line !== null && badLines.has(line), `error at line ${line}, bad lines ${[...badLines]}`).toBe(true);
          // A bad line that is not a JSON object is always reported, at its line.
          for (const p of placed) if (p.text.trim() !== "" && !isJsonObjectText(p.text)) expect(errorLines).toContain(p.line);
        }),
        settings(200),
      );
    },
    TIMEOUT,
  );
});

function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

describe("regressions found by these properties", () => {
  const protocol = FUZZ_SAMPLES[0];
  const ids = (p: Parsed) => eventsOf(p.items).map((e) => [e.line, e.event.id]);

  it("reads JSON lines whose first line is junk: the junk is one bad line, every event is kept", async () => {
    // Was: the whole file "not a supported format", every valid line lost.
    const parsed = await parseBytes(encoder.encode(`- **Phases**: → → →\n${protocol.text}`), protocol);
    expect(parsed.format).toBe("protocol");
    expect(parsed.items.filter((i) => i.kind === "error").map((i) => i.kind === "error" && i.line)).toEqual([1]);
    expect(ids(parsed)).toEqual(ids(await parseBytes(encoder.encode(`\n${protocol.text}`), protocol)));
    expect(ids(parsed)).toHaveLength(8);
  });

  it("detects the same format however the head is cut, past a stray line and a run of blank lines", async () => {
    // Was: 1-byte chunks stopped reading the head after 64 line breaks, all blank: "unknown", but "protocol" read whole.
    const bytes = encoder.encode(`\u000b${"\n".repeat(80)}${protocol.text}`);
    const whole = await parseBytes(bytes, protocol);
    const bytewise = await parseBytes(bytes, protocol, [1]);
    expect([whole.format, bytewise.format]).toEqual(["protocol", "protocol"]);
    expect(withoutOffsets(bytewise.items)).toEqual(withoutOffsets(whole.items));
  });
});
