// Reading real agent transcripts: `loopscope detect`'s path (format detection,
// the format's mapper, a streaming detector per run) against a parse-only
// pass (split into lines and JSON.parse them, or JSON.parse a whole document)
// over the same bytes, per format, in the same process. The corpus is
// ../shared/real-traces (read in place), repeated until at least --mb
// megabytes (default 1,000) have been read; each repetition is a fresh read,
// as if new files, so no run grows past its real length.
// Usage: node bench/real/run.js [--dir ../shared/real-traces] [--mb 1000]
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

/** The parse-only pass: what reading the bytes as JSON costs anyway; returns the records seen. */
function parseOnly(file) {
  const text = file.bytes.toString("utf8");
  const trimmed = text.trimStart();
  if (file.document) {
    const value = JSON.parse(trimmed);
    return countRecords(value);
  }
  let records = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    records++;
    if (line.startsWith("{")) JSON.parse(line);
  }
  return records;
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
  if (format === "unknown" || format === "binary") continue;
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

// Warm both paths up (JIT) on one pass of the corpus.
for (const file of known) {
  parseOnly(file);
  await detectFile(file, new Map());
}

const seconds = (started) => Number(process.hrtime.bigint() - started) / 1e9;
const lines = [];
let worst = Infinity;
for (const [format, entry] of [...byFormat].sort()) {
  let records = 0;
  let started = process.hrtime.bigint();
  for (let r = 0; r < repeats; r++) for (const file of entry.files) records += parseOnly(file);
  const parseSeconds = seconds(started);
  let findings = 0;
  let events = 0;
  started = process.hrtime.bigint();
  for (let r = 0; r < repeats; r++) {
    const detectors = new Map();
    for (const file of entry.files) {
      const read = await detectFile(file, detectors);
      findings += read.findings;
      events += read.events;
    }
  }
  const detectSeconds = seconds(started);
  const mb = (entry.bytes * repeats) / 1e6;
  const ratio = parseSeconds / detectSeconds;
  worst = Math.min(worst, ratio);
  lines.push(
    `real ${format}: ${(mb / detectSeconds).toFixed(1)} MB/s, ${Math.round(records / detectSeconds).toLocaleString("en-US")} records/s ` +
      `(parse-only ${(mb / parseSeconds).toFixed(1)} MB/s), ratio ${ratio.toFixed(2)}; ` +
      `${(events / repeats).toLocaleString("en-US")} events and ${findings / repeats} findings per pass over ${entry.files.length} files`,
  );
}
for (const line of lines) console.log(line);
console.log(`real: lowest ratio ${worst.toFixed(2)} (target at least 0.50)`);
