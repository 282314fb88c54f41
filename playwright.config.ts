import { defineConfig } from "@playwright/test";
import { execSync } from "node:child_process";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const PG_PORT = PORT + 10;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Every spec runs twice, against SQLite and against PostgreSQL (same behaviour on
 * both), where the local PostgreSQL answers (every dev machine and CI);
 * E2E_POSTGRES=0 skips the second pass.
 */
function postgresAnswers(): boolean {
  if (process.env.E2E_POSTGRES === "0") return false;
  try {
    execSync("pg_isready -h 127.0.0.1 -p 5432 -q", { stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
const withPostgres = postgresAnswers();

/**
 * End-to-end tests in Debian's Chromium (Playwright cannot download its own
 * browsers here) against the production build, served with a fresh SQLite
 * database that scripts/e2e-server.js seeds from the fixtures.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
    },
  },
  // Each database's setup project signs the e2e users in; specs run signed in as the admin
  // unless they open a context of another role (e2e/support.ts).
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/, use: { browserName: "chromium" } },
    {
      name: "chromium", dependencies: ["setup"],
      use: { browserName: "chromium", storageState: `data/e2e-${PORT}-admin.json` },
    },
    ...(withPostgres
      ? [
          { name: "setup-postgres", testMatch: /auth\.setup\.ts/, use: { browserName: "chromium" as const, baseURL: `http://127.0.0.1:${PG_PORT}` } },
          {
            name: "chromium-postgres", dependencies: ["setup-postgres"],
            use: { browserName: "chromium" as const, baseURL: `http://127.0.0.1:${PG_PORT}`, storageState: `data/e2e-${PG_PORT}-admin.json` },
          },
        ]
      : []),
  ],
  webServer: [
    {
      command: `node scripts/e2e-server.js ${PORT}`,
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    ...(withPostgres
      ? [{
          command: `node scripts/e2e-server.js ${PG_PORT} postgres`,
          url: `http://127.0.0.1:${PG_PORT}/api/health`,
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: "pipe" as const,
          stderr: "pipe" as const,
        }]
      : []),
  ],
});
