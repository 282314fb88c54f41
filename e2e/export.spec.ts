import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextAs, loopscopeCli } from "./support";

const LOOP_RUN = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const FAILING_RUN = "run_01JS4V6X8Z0B2D4F6H8K0M2P4R";
const HOSTILE_REPORT_RUN = "e2e0bad0-5c71-4e3a-9d2b-6f1a2b3c4d5e";
const SPOOF_RUN = "e2e-spoof-run";
const BIG_RUN = "e2e-big-run-20k";
const BREAKOUT_RUN = "e2e-export-breakout";
const STDERR = "AssertionError: expected 2026-09-04 to equal 2026-09-03";

/** What opening a file saw: every request, dialogs and policy violations. */
interface Opened {
  page: Page;
  context: BrowserContext;
  requests: string[];
  dialogs: string[];
  violations: string[];
}

/**
 * Opens a file from file:// in a fresh context where every request but the
 * file's own is refused and counted.
 */
async function openFile(browser: Browser, file: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  await context.route("**", (route) => {
    const url = route.request().url();
    if (url === `file://${file}`) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("request", (r) => {
    if (r.url() !== `file://${file}` && !requests.includes(r.url())) requests.push(r.url());
  });
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const violations: string[] = [];
  await page.exposeFunction("__reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(`file://${file}`);
  return { page, context, requests, dialogs, violations };
}

function exportWithCli(runId: string, name: string, extra: string[] = []): string {
  const dir = test.info().outputPath("exports");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  loopscopeCli(test.info(), ["export", runId, "-o", file, ...extra]);
  return file;
}

test.describe("a run exported as one HTML file", () => {
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, info) => {
    // A run whose every text tries to close the data's <script> element or open a comment.
    const dir = info.outputPath("breakout");
    mkdirSync(dir, { recursive: true });
    const t = (s: number) => new Date(Date.UTC(2026, 7, 23, 8, 0, s)).toISOString();
    const evil = "</script><script>window.__pwned='breakout'</script><!--<script>window.__pwned='comment'</script>\u2028";
    const lines = [
      { type: "run.started", title: `Breakout ${evil}`, graph: { nodes: [{ id: "coder", label: `coder ${evil}` }, { id: "verifier" }] } },
      { type: "node.completed", node: "coder", output: { final: evil } },
      { type: "edge.traversed", from: "coder", to: "verifier" },
      { type: "verify.result", node: "verifier", command: "npm test", passed: false, exitCode: 1, stderr: evil, failing: [`test ${evil}`] },
      { type: "run.completed", terminalStatus: "aborted_stuck", stopReason: evil },
    ].map((e, i) => JSON.stringify({ v: 1, id: `breakout-${i}`, runId: BREAKOUT_RUN, ts: t(i), ...e }));
    writeFileSync(join(dir, "breakout.jsonl"), `${lines.join("\n")}\n`);
    loopscopeCli(info, ["ingest", "--quiet", dir]);
  });

  test("opens from file:// with the network refused: header, graph, inspector, findings, timeline and report, and zero requests", async ({ browser }) => {
    const file = exportWithCli(LOOP_RUN, "loop.html");
    const { page, context, requests, violations } = await openFile(browser, file);
    await expect(page.getByRole("heading", { level: 1, name: "Pick a PDF rendering library" })).toBeVisible();
    await expect(page.getByTestId("export-note")).toContainText("Exported run · read-only");
    const graph = page.getByRole("region", { name: "Graph" });
    await expect(graph.getByTestId("run-graph")).toHaveAttribute("data-layout", "ready");
    await expect(graph.getByTestId("loop-badge").first()).toBeVisible();
    await expect(page.locator(".react-flow__node")).not.toHaveCount(0);
    await page.getByTestId("graph-node-researcher").click();
    await expect(page.getByTestId("node-inspector")).toContainText("Researcher");
    await expect(page.getByTestId("node-inspector").getByRole("region", { name: "Budgets" })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("node")).toBe("researcher");
    await page.getByRole("button", { name: "Close the inspector" }).click();
    const findings = page.getByRole("region", { name: /Findings/ });
    await expect(findings).toContainText("edge_without_progress");
    await expect(page.getByTestId("timeline-total")).toHaveText("50 events");
    // A finding's "at event" link finds its event in the virtualised timeline, from the file's data.
    const at = findings.locator("a[href^='#event-']").first();
    const target = (await at.getAttribute("href"))!.slice("#event-".length);
    await at.click();
    await expect(page.locator(`#event-${target}`)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("export-loop.png"), fullPage: true });
    expect(requests).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  test("the failing-test trend, the report and a 20,000-event timeline work from the file too", async ({ browser }) => {
    const failing = await openFile(browser, exportWithCli(FAILING_RUN, "failing.html"));
    await failing.page.getByTestId("graph-node-verifier").click();
    const trend = failing.page.getByTestId("node-inspector").getByRole("region", { name: "Failing tests" });
    await expect(trend.locator("svg.recharts-surface")).toBeVisible();
    expect(failing.requests).toEqual([]);
    await failing.context.close();

    const report = await openFile(browser, exportWithCli("a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2", "report.html"));
    await expect(report.page.getByRole("article", { name: "Report" })).toContainText("npm test -- search");
    await report.context.close();

    // Big enough that its data is embedded gzipped.
    const file = exportWithCli(BIG_RUN, "big.html");
    expect(readFileSync(file, "utf8")).toContain('data-encoding="gzip+base64"');
    const big = await openFile(browser, file);
    await expect(big.page.getByTestId("timeline-total")).toHaveText("20,000 events");
    await big.page.getByRole("button", { name: /Latest/ }).click();
    await expect(big.page.locator('.timeline-slot[data-index="19999"] .timeline-row:not(.loading)')).toContainText("run.completed");
    // Virtualised: only the rows on screen exist.
    expect(await big.page.locator(".timeline-slot").count()).toBeLessThan(100);
    await big.page.getByLabel("Event type").selectOption("verify.result");
    await expect(big.page.getByTestId("timeline-total")).toHaveText("2,499 events");
    expect(big.requests).toEqual([]);
    expect(big.violations).toEqual([]);
    await big.context.close();
  });

  test("hostile text stays inert in the file: no script, no dialog, no navigation, no request", async ({ browser }) => {
    for (const runId of [HOSTILE_REPORT_RUN, SPOOF_RUN, BREAKOUT_RUN]) {
      const file = exportWithCli(runId, `${runId}.html`);
      const html = readFileSync(file, "utf8");
      // Nothing in the data can close its element or open another: it holds no "<" at all.
      const data = /<script type="application\/json" id="loopscope-run">([^]*?)<\/script>/.exec(html)?.[1];
      expect(data).toContain("\\u003cscript\\u003e");
      expect(data!.includes("<")).toBe(false);
      expect(html.match(/<\/script/gi)).toHaveLength(2);
      const { page, context, requests, dialogs, violations } = await openFile(browser, file);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator(".react-flow__node").first()).toBeVisible();
      for (const node of await page.locator(".react-flow__node").all()) await node.click();
      // Every event's raw JSON on screen opened (at once: an opened row moves the virtualised rows after it).
      await page.locator(".timeline-row button").evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
      await expect(page.locator(".timeline-row button[aria-expanded=true]").first()).toBeVisible();
      await page.mouse.move(640, 450);
      await page.waitForTimeout(300);
      const found = await page.locator("body").evaluate((body) => {
        const all = [...body.querySelectorAll("*")];
        return {
          scripts: document.scripts.length,
          active: body.querySelectorAll("iframe, img, object, embed, video, audio, source, link, form, base, meta").length,
          handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.toLowerCase().startsWith("on")).map((a) => `${el.tagName}[${a.name}]`)),
          hrefs: [...body.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!).filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)),
        };
      });
      expect(found).toEqual({ scripts: 2, active: 0, handlers: [], hrefs: [] });
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(page.url().split("?")[0]).toBe(`file://${file}`);
      expect({ runId, requests, dialogs, violations }).toEqual({ runId, requests: [], dialogs: [], violations: [] });
      if (runId === BREAKOUT_RUN) await expect(page.getByRole("heading", { level: 1 })).toContainText("Breakout </script><script>");
      if (runId === HOSTILE_REPORT_RUN) {
        const report = page.getByRole("article", { name: "Report" });
        await expect(report).toContainText("An agent may write anything here");
        await expect(report.getByRole("link", { name: "the docs" })).toHaveAttribute("href", "https://example.com/docs");
      }
      await context.close();
    }
  });

  test("the Export button downloads the file for an operator, redacted by default; a viewer may not export", async ({ browser }) => {
    const op = await (await contextAs(browser, test.info(), "operator")).newPage();
    await op.goto(`/runs/${FAILING_RUN}`);
    const panel = op.getByRole("region", { name: "Export" });
    await expect(panel.getByLabel(/Redact payloads/)).toBeChecked();
    const [download] = await Promise.all([op.waitForEvent("download"), panel.getByRole("button", { name: "Export", exact: true }).click()]);
    expect(download.suggestedFilename()).toBe(`loopscope-run-${FAILING_RUN}.html`);
    const file = test.info().outputPath("downloaded.html");
    await download.saveAs(file);
    const html = readFileSync(file, "utf8");
    expect(html).toContain("Content-Security-Policy");
    expect(html).not.toContain(STDERR);
    const opened = await openFile(browser, file);
    await expect(opened.page.getByTestId("export-note")).toContainText("payloads redacted");
    await opened.page.getByTestId("graph-node-verifier").click();
    await expect(opened.page.getByTestId("node-inspector").getByRole("region", { name: "Failing tests" })).toBeVisible();
    expect(opened.requests).toEqual([]);
    await opened.context.close();

    // Unredacted when the operator says so; JSON for another Loopscope.
    await panel.getByLabel(/Redact payloads/).uncheck();
    const [full] = await Promise.all([op.waitForEvent("download"), panel.getByRole("button", { name: "Export", exact: true }).click()]);
    expect(readFileSync(await full.path(), "utf8")).toContain(STDERR);
    const [json] = await Promise.all([op.waitForEvent("download"), panel.getByRole("link", { name: "JSON for another Loopscope" }).click()]);
    expect(JSON.parse(readFileSync(await json.path(), "utf8"))).toMatchObject({ loopscope: "run-export", run: { id: FAILING_RUN } });

    const viewer = await (await contextAs(browser, test.info(), "viewer")).newPage();
    await viewer.goto(`/runs/${FAILING_RUN}`);
    await expect(viewer.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(viewer.getByRole("region", { name: "Export" })).toHaveCount(0);
    const refused = await viewer.request.get(`/api/runs/${FAILING_RUN}/export?redact=1`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining("operator") });
    const signedOut = await browser.newContext({ baseURL: String(test.info().project.use.baseURL), storageState: { cookies: [], origins: [] } });
    expect((await signedOut.request.get(`/api/runs/${FAILING_RUN}/export`)).status()).toBe(401);
    await signedOut.close();
  });
});
