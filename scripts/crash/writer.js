// The agent side of the watch-crash phase: appends protocol lines to several
// files in a folder and creates new files (empty at first), sometimes writing
// a line in two parts with a pause between (a reader sees half a line). On
// "stop" (IPC) it completes the line it is writing, then writes the keys of
// every line it wrote, and each file's line count, to the file named by argv.
//
// Usage (forked by watch-phase.js): node scripts/crash/writer.js <dir> <seed> <outFile>
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRandom } from "../../bench/random.js";
import { createRunScript, eventKey } from "./events.js";

const [dir, seed, outFile] = process.argv.slice(2);
const MAX_FILES = 12;
const rand = createRandom(Number(seed) * 7 + 3);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let stopping = false;
process.on("message", (m) => {
  if (m === "stop") stopping = true;
});

const files = [];
const keys = [];
const addFile = () => {
  const name = `agent-${String(files.length).padStart(2, "0")}.jsonl`;
  const path = join(dir, name);
  writeFileSync(path, "");
  // One run per file, and one run whose events are spread over every file.
  files.push({
    name, path, lines: 0,
    own: createRunScript(`w-${name}`, rand, { tsBase: Date.UTC(2026, 5, 1) + files.length * 86_400_000 }),
    multi: createRunScript("w-multi", rand, { tsBase: Date.UTC(2026, 4, 1) + files.length * 53, idPrefix: `w-multi-${name}`, startEvent: files.length === 0 }),
  });
};
for (let i = 0; i < 3; i++) addFile();

for (let round = 0; !stopping; round++) {
  if (files.length < MAX_FILES && round % 40 === 39) addFile();
  const f = files[Math.floor(rand() * files.length)];
  const count = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < count; i++) {
    const event = rand() < 0.1 ? f.multi.next() : f.own.next();
    const line = `${JSON.stringify(event)}\n`;
    if (i === count - 1 && rand() < 0.15) {
      const cut = 1 + Math.floor(rand() * (line.length - 2));
      appendFileSync(f.path, line.slice(0, cut));
      await sleep(5 + rand() * 60);
      appendFileSync(f.path, line.slice(cut));
    } else appendFileSync(f.path, line);
    f.lines++;
    keys.push(eventKey(event.runId, event.id));
  }
  await sleep(5 + rand() * 20);
}
writeFileSync(outFile, JSON.stringify({ keys, files: files.map((f) => ({ path: f.path, lines: f.lines })) }));
process.exit(0);
