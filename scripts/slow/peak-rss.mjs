// Preloaded (`node --import`) into the loopscope processes of the slow suite:
// writes the process's peak resident set size, in KiB (getrusage's maxrss), to
// the file named by LOOPSCOPE_PEAK_RSS_FILE when the process exits.
import { writeFileSync } from "node:fs";

const out = process.env.LOOPSCOPE_PEAK_RSS_FILE;
if (out) process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
