import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { TestInfo } from "@playwright/test";

/** The ingest API key the e2e server created for this project's server (SQLite or PostgreSQL). */
export function apiKeyFor(info: TestInfo): string {
  const port = new URL(String(info.project.use.baseURL)).port;
  return readFileSync(resolve(`data/e2e-${port}.key`), "utf8").trim();
}
