import { expect, test, type Browser, type Page } from "@playwright/test";
import { contextAs, loopscopeCli } from "./support";

const LOOP_RUN = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const OTHER_RUN = "run_01JS4V6X8Z0B2D4F6H8K0M2P4R";
const SPOOF_RUN = "e2e-spoof-run";
const HOSTILE_REPORT_RUN = "e2e0bad0-5c71-4e3a-9d2b-6f1a2b3c4d5e";

/** An operator makes a link on the run page; returns the URL shown (once). */
async function shareFromRunPage(op: Page, runId: string, opts: { redact?: boolean; days?: string } = {}): Promise<string> {
  await op.goto(`/runs/${encodeURIComponent(runId)}`);
  const panel = op.getByRole("region", { name: "Share with a reviewer" });
  if (opts.days) await panel.getByLabel("Expires after").selectOption(opts.days);
  if (opts.redact) await panel.getByLabel(/Redact payloads/).check();
  await panel.getByRole("button", { name: "Create link" }).click();
  const url = await panel.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/share\/lsh_[A-Za-z0-9_-]{43}$/);
  return url;
}

/** A reviewer: a browser that never signed in. */
async function reviewer(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: String(test.info().project.use.baseURL), storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

test.describe("share links", () => {
  test("a reviewer sees exactly the shared run, read-only, and nothing else; revoking it answers 404 at once", async ({ browser }) => {
    const op = await (await contextAs(browser, test.info(), "operator")).newPage();
    const url = await shareFromRunPage(op, LOOP_RUN);
    const path = new URL(url).pathname;
    const token = path.split("/").pop()!;

    const page = await reviewer(browser);
    const response = await page.goto(path);
    expect(response!.status()).toBe(200);
    const h = response!.headers();
    expect(h["referrer-policy"]).toBe("no-referrer");
    expect(h["cache-control"]).toContain("no-store");
    expect(h["x-robots-tag"]).toContain("noindex");
    expect(h["content-security-policy"]).toMatch(/'nonce-/);
    await expect(page.getByTestId("share-note")).toContainText("Shared run · read-only");
    await expect(page.getByRole("heading", { name: "Pick a PDF rendering library" })).toBeVisible();

    // The graph with its badge and halt, the inspector, findings and timeline.
    const graph = page.getByRole("region", { name: "Graph" });
    await expect(graph.getByTestId("loop-badge").first()).toBeVisible();
    await page.getByTestId("graph-node-researcher").click();
    await expect(page.getByTestId("node-inspector")).toContainText("Researcher");
    await expect(page.getByRole("region", { name: /Findings/ })).toContainText("edge_without_progress");
    await expect(page.getByTestId("timeline-total")).toHaveText("50 events");

    // No way out: no link to other pages (React Flow's attribution aside), no actions, no source paths.
    const out = await page.locator("a[href]").evaluateAll((as) =>
      as.map((a) => a.getAttribute("href")!).filter((h) => !h.startsWith("#") && !h.startsWith("?") && !h.startsWith("https://reactflow.dev")));
    expect(out).toEqual([]);
    await expect(page.locator("form")).toHaveCount(0);
    await expect(page.getByText("Source files")).toHaveCount(0);
    await page.goto("/runs");
    await expect(page).toHaveURL(/\/sign-in/);
    for (const p of [`/api/runs/${LOOP_RUN}/graph`, `/api/runs/${OTHER_RUN}/events`, "/api/runs"]) {
      expect((await page.request.get(p, { headers: { authorization: `Bearer ${token}` } })).status(), p).toBe(401);
    }
    // The token's APIs answer for its run only, whatever else the request names.
    const events = await (await page.request.get(`/api/share/${token}/events?runId=${OTHER_RUN}&limit=5`)).json();
    expect(events.events.length).toBeGreaterThan(0);
    const graphBody = await (await page.request.get(`/api/share/${token}/graph?runId=${OTHER_RUN}`)).json();
    expect(graphBody.runId).toBe(LOOP_RUN);
    expect((await page.request.get(`/api/share/${token}/graph/nodes/coder%2F..%2F..%2Fruns%2F${OTHER_RUN}`)).status()).toBe(404);
    const escaped = await page.request.get(`/share/${token}/../../runs/${OTHER_RUN}`, { maxRedirects: 0 });
    expect(escaped.status()).toBe(307);
    expect(escaped.headers().location).toContain("/sign-in");
    // Another token (one character off) opens nothing.
    const forged = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect((await page.goto(`/share/${forged}`))!.status()).toBe(404);

    // The operator sees the opening in the access log, then revokes.
    await op.goto("/shares");
    const row = op.locator("tr", { hasText: "Pick a PDF rendering library" }).first();
    await expect(row).toContainText("e2e-operator");
    await row.getByText(/access log/).click();
    await expect(row).toContainText(/Headless Chrome on Linux · net-[0-9a-f]{10}/);
    const id = await row.getAttribute("data-share-id");
    // Revoking asks first; Cancel (or Escape) keeps the link working.
    const revoke = row.getByRole("button", { name: "Revoke", exact: true });
    const confirm = op.getByRole("dialog", { name: "Revoke this share link?" });
    await revoke.click();
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(revoke).toBeFocused();
    await revoke.click();
    await op.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await op.reload();
    await expect(op.locator(`tr[data-share-id="${id}"]`)).toHaveCount(1);
    expect((await page.goto(path))!.status()).toBe(200);
    await expect(page.getByTestId("share-note")).toContainText("Shared run · read-only");

    await op.locator(`tr[data-share-id="${id}"]`).getByRole("button", { name: "Revoke", exact: true }).click();
    await confirm.getByRole("button", { name: "Revoke link" }).click();
    await expect(op.locator(`tr[data-share-id="${id}"]`)).toHaveCount(0);

    expect((await page.goto(path))!.status()).toBe(404);
    // The reviewer is told why and what to do, not shown a bare "page could not be found".
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
    await expect(page.getByText("Ask the person who sent it for a new one.", { exact: false })).toBeVisible();
    expect((await page.request.get(`/api/share/${token}/graph`)).status()).toBe(404);
    expect((await page.request.get(`/api/share/${token}/events`)).status()).toBe(404);
  });

  test("from the command line: create with expiry and redaction, list, revoke by URL", async ({ browser }) => {
    expect(() => loopscopeCli(test.info(), ["share", "create", LOOP_RUN, "--expires", "91d"])).toThrow(/90 days/);
    const url = loopscopeCli(test.info(), ["share", "create", SPOOF_RUN, "--expires", "2d", "--redact"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/share\/lsh_[A-Za-z0-9_-]{43}$/);
    const path = new URL(url).pathname;
    const token = path.split("/").pop()!;
    const list = loopscopeCli(test.info(), ["share", "list"]);
    expect(list).toContain(`run ${SPOOF_RUN}`);
    expect(list).toContain("redacted");
    expect(list).not.toContain(token);

    const page = await reviewer(browser);
    await page.goto(path);
    await expect(page.getByTestId("share-note")).toContainText("payloads redacted");
    // Redacted: what the agent wrote or ran is withheld everywhere the reviewer can reach.
    const body = await (await page.request.get(`/api/share/${token}/events?limit=500`)).text();
    for (const secret of ["sk-live-e2e-should-be-redacted", "e2e-stderr-secret", "e2e-diff-secret"]) {
      expect(body).not.toContain(secret);
      await expect(page.locator("body")).not.toContainText(secret);
    }
    expect(body).toContain("[redacted]");
    expect(body).toContain("d-same");

    expect(loopscopeCli(test.info(), ["share", "revoke", url])).toMatch(/^revoked share link /);
    expect((await page.goto(path))!.status()).toBe(404);

    // A redacted report keeps its prose and loses its code and the stop reason the agent wrote.
    const reportPath = new URL(loopscopeCli(test.info(), ["share", "create", HOSTILE_REPORT_RUN, "--redact"])).pathname;
    await page.goto(reportPath);
    const report = page.getByRole("article", { name: "Report" });
    await expect(report).toContainText("An agent may write anything here");
    await expect(report).not.toContainText("inside a code block");
    await expect(page.getByRole("region", { name: "Run summary" })).not.toContainText("onerror");
  });

  test("hostile agent content on a share page runs nothing, loads nothing, and cannot spoof the page", async ({ browser, baseURL }) => {
    const op = await (await contextAs(browser, test.info(), "operator")).newPage();
    // On the team's pages too: the history shows the override as a code point.
    await op.goto(`/runs?q=e2e-spoof`);
    await expect(op.getByRole("table", { name: "Runs" })).toContainText("Pay invoice ⟨U+202E⟩gpj.exe");
    for (const runId of [SPOOF_RUN, HOSTILE_REPORT_RUN]) {
      const path = new URL(await shareFromRunPage(op, runId)).pathname;
      const page = await reviewer(browser);
      const offsite: string[] = [];
      const dialogs: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).origin !== new URL(baseURL!).origin) offsite.push(r.url());
      });
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(path);
      await expect(page.getByTestId("share-note")).toBeVisible();
      await expect(page.locator(".react-flow__node").first()).toBeVisible();
      // Open every event's raw JSON on the first page of the timeline, and the inspector of each node.
      for (const n of await page.locator(".react-flow__node").all()) await n.click();
      const found = await page.locator("main").evaluate((main) => {
        const all = [...main.querySelectorAll("*")];
        return {
          active: main.querySelectorAll("script, iframe, img, object, embed, video, audio, source, link, style, form").length,
          handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.toLowerCase().startsWith("on")).map((a) => `${el.tagName}[${a.name}]`)),
          hrefs: [...main.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!).filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)),
        };
      });
      expect(found.active).toBe(0);
      expect(found.handlers).toEqual([]);
      expect(found.hrefs).toEqual([]);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(offsite).toEqual([]);
      if (runId === SPOOF_RUN) {
        // Bidirectional overrides and zero-width characters show as their code points; the long name wraps.
        const heading = page.getByRole("heading", { level: 1 });
        await expect(heading).toContainText("Pay invoice ⟨U+202E⟩gpj.exe <script>");
        const box = await heading.boundingBox();
        expect(box!.width).toBeLessThanOrEqual(1280);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);        await expect(page.locator(".react-flow__node").filter({ hasText: "Plan⟨U+200B⟩ner ⟨U+2066⟩admin⟨U+2069⟩" })).toHaveCount(1);
      }
      await page.context().close();
    }
  });
});
