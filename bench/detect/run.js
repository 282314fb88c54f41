// Detector throughput: JSON.parse alone vs JSON.parse + a streaming
// RunDetector per run, over the same generated lines in the same process.
// Usage: node bench/detect/run.js [--runs 1000] [--events 1000] [--rounds 3]
import { register } from "tsx/esm/api";
import { generateLines } from "./generate.js";

register();
const { RunDetector } = await import("../../lib/domain/detector/index.ts");

function readOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const runs = readOption("runs", 1000);
const eventsPerRun = readOption("events", 1000);
const rounds = readOption("rounds", 3);

/** Parse only: the baseline every ingest path pays anyway. */
function parseOnly(lines) {
  let sink = 0;
  for (let i = 0; i < lines.length; i++) {
    const event = JSON.parse(lines[i]);
    sink += event.type.length;
  }
  return sink;
}

/**
 * Parse, find the run's detector, feed it: what streaming detection costs.
 * Consecutive lines mostly belong to one run, so the last run's detector is
 * tried before the map (as an ingest loop would).
 */
function parseAndDetect(lines) {
  const detectors = new Map();
  let lastRunId = null;
  let detector = null;
  let findings = 0;
  for (let i = 0; i < lines.length; i++) {
    const event = JSON.parse(lines[i]);
    if (event.runId !== lastRunId) {
      lastRunId = event.runId;
      detector = detectors.get(lastRunId);
      if (detector === undefined) {
        detector = new RunDetector();
        detectors.set(lastRunId, detector);
      }
    }
    findings += detector.feed(event).length;
  }
  return findings;
}

/** Wall-clock and CPU seconds of one pass (CPU time leaves out other processes on a shared machine). */
function time(fn, lines) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = fn(lines);
  const used = process.cpuUsage(cpu);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (used.user + used.system) / 1e6, result };
}

const format = (n) => Math.round(n).toLocaleString("en-US");

const generatedAt = process.hrtime.bigint();
const lines = generateLines({ runs, eventsPerRun });
const bytes = lines.reduce((sum, line) => sum + line.length, 0);
console.log(
  `generated ${format(lines.length)} lines (${runs} runs, ${(bytes / lines.length).toFixed(0)} bytes/line avg) ` +
    `in ${(Number(process.hrtime.bigint() - generatedAt) / 1e9).toFixed(1)} s`,
);

// Warm up both paths (JIT) on a slice before measuring.
const warm = lines.slice(0, Math.min(lines.length, 100_000));
parseOnly(warm);
parseAndDetect(warm);

let bestParse = Infinity;
let bestDetect = Infinity;
let bestParseCpu = Infinity;
let bestDetectCpu = Infinity;
let findings = 0;
for (let round = 0; round < rounds; round++) {
  const parsed = time(parseOnly, lines);
  bestParse = Math.min(bestParse, parsed.seconds);
  bestParseCpu = Math.min(bestParseCpu, parsed.cpuSeconds);
  const detected = time(parseAndDetect, lines);
  bestDetect = Math.min(bestDetect, detected.seconds);
  bestDetectCpu = Math.min(bestDetectCpu, detected.cpuSeconds);
  findings = detected.result;
}

const parseRate = lines.length / bestParse;
const detectRate = lines.length / bestDetect;
const detectorOnly = lines.length / Math.max(bestDetect - bestParse, 1e-9);
console.log(
  `parse-only: ${format(parseRate)} ev/s  parse+detect: ${format(detectRate)} ev/s  ratio ${(detectRate / parseRate).toFixed(2)}` +
    ` (CPU time: ratio ${(bestParseCpu / bestDetectCpu).toFixed(2)})`,
);
console.log(
  `detector alone (difference): ${format(detectorOnly)} ev/s (${((bestDetect - bestParse) * 1e9 / lines.length).toFixed(0)} ns/event); ` +
    `${format(findings)} findings; best of ${rounds} rounds`,
);
// The whole process, generation included (maxRSS is in kilobytes).
console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (target under 500 MB for the 1M-event corpus)`);
