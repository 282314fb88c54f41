import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// npm run test:slow: reliability cases too long for `npm test` (a 2 GB file,
// a 50 MB line, junk bytes, a watched symlink loop, files cut while read).
// One file at a time: each measures the memory and CPU of a loopscope process.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["scripts/slow/**/*.test.ts"],
    environment: "node",
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
  },
});
