import { configDefaults, defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
    // Minutes long: `npm run test:slow` (vitest.slow.config.ts), not part of `npm test`.
    exclude: [...configDefaults.exclude, "scripts/slow/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
