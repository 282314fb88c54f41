// Reading real agent transcripts: `loopscope detect`'s path (format detection,
// the format's mapper, a streaming detector per run) against a parse-only
// pass over the same bytes, per format, in the same process. Parse-only is
// the reading no reader of the format can skip: JSON-lines are split into
// lines and each JSON.parse'd; a JSON document is JSON.parse'd whole; an
// Aider history (markdown) is split into lines and gathered into its markdown
// blocks (ATX headings such as `####` prompts, `>` quotes, fenced code,
// paragraphs), each block's text joined. The corpus is ../shared/real-traces
// (read in place), repeated until at least --mb megabytes (default 1,000)
// have been read; each repetition is a fresh read, as if new files, so no
// run grows past its real length. A repetition runs the parse-only pass and
// then the detect pass over a format's files, so that a change of load on a
// shared machine falls on both alike.
// Each format is timed over at least --format-mb megabytes (default 100), after
// a warm-up of a twentieth as many passes. The ratio is of wall-clock time;
// the ratio of this process's CPU time is printed beside it (it counts the
// garbage collector's helper threads, and not other processes' load).
// Usage: node bench/real/run.js [--dir ../shared/real-traces] [--mb 1000] [--format-mb 100] [--only <format>]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { register } from "tsx/esm/api";

register();
const { parseSource } = await import("../../lib/domain/formats/index.ts");
const { RunDetector } = await import("../../lib/domain/detector/index.ts");

function readOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const dir = resolve(readOption("dir", "../shared/real-traces"));
const targetBytes = Number(readOption("mb", "1000")) * 1e6;
// A format of a few small files would otherwise be timed over a tenth of a second: each gets at least this much.
const formatBytes = Number(readOption("format-mb", "100")) * 1e6;
const only = readOption("only", undefined);
const CHUNK = 64 * 1024;

function listFiles(folder) {
  const out = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

/** Feeds a buffer to parseSource in 64 KiB chunks, as a file read would. */
async function* chunksOf(buffer) {
  for (let at = 0; at < buffer.length; at += CHUNK) yield buffer.subarray(at, at + CHUNK);
}

/** The detect path over one file: items counted, events fed to the run's detector. */
async function detectFile(file, detectors) {
  let format = "unknown";
  let findings = 0;
  let events = 0;
  for await (const item of parseSource(chunksOf(file.bytes), { sourceKey: file.name, sourceFolder: basename(dirname(file.path)), onFormat: (f) => (format = f) })) {
    if (item.kind !== "event") continue;
    events++;
    let detector = detectors.get(item.event.runId);
    if (detector === undefined) detectors.set(item.event.runId, (detector = new RunDetector()));
    findings += detector.feed(item.event).length;
  }
  return { format, findings, events };
}

/** The parse-only pass: what reading the bytes costs anyway; returns the records seen. */
function parseOnly(file) {
  const text = file.bytes.toString("utf8");
  if (file.document) return countRecords(JSON.parse(text.trimStart()));
  if (file.format === "aider") return readMarkdownBlocks(text);
  let records = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    records++;
    if (line.startsWith("{")) JSON.parse(line);
  }
  return records;
}

/**
 * A markdown document's blocks, as a block-level reading finds them: each line
 * is a heading (`#`…), a quote (`>`), a fence (backticks or tildes, which open
 * or close fenced code), a blank line or paragraph text; consecutive lines of
 * one kind are one block, whose text is joined. Returns the number of blocks.
 */
// The joined blocks' size, kept so that the joins are real work (only ever written).
let _blockChars = 0;
function readMarkdownBlocks(text) {
  let blocks = 0;
  let kind = "";
  let fence = false;
  let lines = [];
  const close = () => {
    if (lines.length === 0) return;
    blocks++;
    _blockChars += lines.join("\n").length;
    lines = [];
  };
  for (const line of text.split("\n")) {
    const start = line.trimStart();
    let next;
    if (start.startsWith("```") || start.startsWith("~~~")) {
      fence = !fence;
      next = "fence";
    } else if (fence) next = "code";
    else if (start === "") next = "blank";
    else if (line.startsWith("#")) next = "heading";
    else if (line.startsWith(">")) next = "quote";
    else next = "text";
    if (next !== kind) {
      close();
      kind = next;
    }
    lines.push(line);
  }
  close();
  return blocks;
}

/** A JSON document's records: the elements of the document (an array) or of its longest array field. */
function countRecords(value) {
  if (Array.isArray(value)) return value.length;
  let most = 1;
  for (const field of Object.values(value ?? {})) if (Array.isArray(field)) most = Math.max(most, field.length);
  return most;
}

const files = listFiles(dir)
  .map((path) => ({ path, name: basename(path), bytes: readFileSync(path) }))
  .filter((file) => file.bytes.length > 0);
// Learn each file's format, and whether it is one JSON document, with one untimed read
// (files of no supported format, such as the corpus's own notes, are left out).
const known = [];
for (const file of files) {
  const { format } = await detectFile(file, new Map());
  if (format === "unknown" || format === "binary" || (only !== undefined && format !== only)) continue;
  const head = file.bytes.subarray(0, 4096).toString("utf8").trimStart();
  let document = false;
  try {
    JSON.parse(file.bytes.toString("utf8"));
    document = true;
  } catch {
    document = false;
  }
  known.push({ ...file, format, document: document && (head.startsWith("{") || head.startsWith("[")) });
}
const corpusBytes = known.reduce((sum, f) => sum + f.bytes.length, 0);
const repeats = Math.max(1, Math.ceil(targetBytes / corpusBytes));
console.log(`corpus: ${known.length} files in ${new Set(known.map((f) => f.format)).size} formats, ${(corpusBytes / 1e6).toFixed(1)} MB; repeated ${repeats}× = ${((corpusBytes * repeats) / 1e6).toFixed(0)} MB`);

const byFormat = new Map();
for (const file of known) {
  const entry = byFormat.get(file.format) ?? { files: [], bytes: 0 };
  entry.files.push(file);
  entry.bytes += file.bytes.length;
  byFormat.set(file.format, entry);
}

const seconds = (started) => Number(process.hrtime.bigint() - started) / 1e9;
/** CPU seconds of this process since `started` (a `process.cpuUsage()`): other processes on a shared machine do not count. */
const cpuSeconds = (started) => {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1e6;
};
const lines = [];
let worst = Infinity;
for (const [format, entry] of [...byFormat].sort()) {
  let records = 0;
  let findings = 0;
  let events = 0;
  let parseSeconds = 0;
  let detectSeconds = 0;
  let parseCpu = 0;
  let detectCpu = 0;
  const times = Math.max(repeats, Math.ceil(formatBytes / entry.bytes));
  // Warm both paths up (JIT) on a twentieth as many passes first.
  for (let r = 0; r < Math.max(3, Math.ceil(times / 20)); r++) {
    for (const file of entry.files) parseOnly(file);
    const detectors = new Map();
    for (const file of entry.files) await detectFile(file, detectors);
  }
  for (let r = 0; r < times; r++) {
    let started = process.hrtime.bigint();
    let cpu = process.cpuUsage();
    for (const file of entry.files) records += parseOnly(file);
    parseSeconds += seconds(started);
    parseCpu += cpuSeconds(cpu);
    started = process.hrtime.bigint();
    cpu = process.cpuUsage();
    const detectors = new Map();
    for (const file of entry.files) {
      const read = await detectFile(file, detectors);
      findings += read.findings;
      events += read.events;
    }
    detectSeconds += seconds(started);
    detectCpu += cpuSeconds(cpu);
  }
  const mb = (entry.bytes * times) / 1e6;
  const ratio = parseSeconds / detectSeconds;
  worst = Math.min(worst, ratio);
  lines.push(
    `real ${format}: ${(mb / detectSeconds).toFixed(1)} MB/s, ${Math.round(records / detectSeconds).toLocaleString("en-US")} records/s ` +
      `(parse-only ${(mb / parseSeconds).toFixed(1)} MB/s), ratio ${ratio.toFixed(2)} (CPU time ${(parseCpu / detectCpu).toFixed(2)}); ` +
      `${(events / times).toLocaleString("en-US")} events and ${findings / times} findings per pass over ${entry.files.length} files, ${times} passes`,
  );
}
for (const line of lines) console.log(line);
console.log(`real: lowest ratio ${worst.toFixed(2)} (target at least 0.50)`);
