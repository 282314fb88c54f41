import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, BrowserContext, Page, TestInfo } from "@playwright/test";

export type E2eRole = "admin" | "operator" | "viewer";

const portOf = (info: TestInfo) => new URL(String(info.project.use.baseURL)).port;

/** The API key (scope ingest+control) the e2e server created for this project's server (SQLite or PostgreSQL). */
export function apiKeyFor(info: TestInfo): string {
  return readFileSync(resolve(`data/e2e-${portOf(info)}.key`), "utf8").trim();
}

/** A key of scope `ingest` only. */
export function ingestOnlyKeyFor(info: TestInfo): string {
  return readFileSync(resolve(`data/e2e-${portOf(info)}-ingest.key`), "utf8").trim();
}

/** The e2e users' names and passwords (scripts/e2e-server.js creates them). */
export function e2eUser(role: E2eRole): { name: string; password: string } {
  return { name: `e2e-${role}`, password: `e2e-${role}-password` };
}

/** Where the setup project keeps each role's signed-in browser state. */
export function storageStateFor(port: string | number, role: E2eRole): string {
  return resolve(`data/e2e-${port}-${role}.json`);
}

/** Runs `loopscope <args>` against this project's server database; returns stdout. */
export function loopscopeCli(info: TestInfo, args: string[], input?: string): string {
  const env = JSON.parse(readFileSync(resolve(`data/e2e-${portOf(info)}.env.json`), "utf8")) as Record<string, string>;
  return execFileSync(process.execPath, ["bin/loopscope.js", ...args], {
    env: { ...process.env, ...env }, encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"],
  }).trim();
}

/** A new browser context signed in as `role` (from the setup project's saved state). */
export async function contextAs(browser: Browser, info: TestInfo, role: E2eRole): Promise<BrowserContext> {
  return browser.newContext({ baseURL: String(info.project.use.baseURL), storageState: storageStateFor(portOf(info), role) });
}

/** Signs in through the sign-in page. */
export async function signInThroughPage(page: Page, name: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByTestId("signed-in-as").waitFor();
}
