import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiKeyFor, contextAs } from "./support";

const HALTED_RUN = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";

/** A server action request as the page would send it, captured and not sent (so nothing changes). */
interface CapturedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

async function captureAction(page: Page, trigger: () => Promise<void>): Promise<CapturedAction> {
  let captured: CapturedAction | null = null;
  await page.route("**/*", async (route) => {
    const req = route.request();
    if (req.method() === "POST" && req.headers()["next-action"]) {
      captured = { url: req.url(), headers: await req.allHeaders(), body: req.postDataBuffer() ?? Buffer.alloc(0) };
      await route.abort();
      return;
    }
    await route.continue();
  });
  await trigger();
  await expect.poll(() => captured !== null).toBe(true);
  await page.unroute("**/*");
  return captured!;
}

/** Sends a captured action again from another client, with some headers replaced. */
async function replay(request: APIRequestContext, action: CapturedAction, override: Record<string, string | null> = {}) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(action.headers)) {
    if (["cookie", "content-length", "host", "connection"].includes(k) || k.startsWith(":")) continue;
    headers[k] = v;
  }
  for (const [k, v] of Object.entries(override)) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  const r = await request.post(action.url, { headers, data: action.body, maxRedirects: 0 });
  return { status: r.status(), text: await r.text() };
}

async function controlState(request: APIRequestContext) {
  const r = await request.get(`/api/runs/${HALTED_RUN}/control/state`, { headers: { authorization: `Bearer ${apiKeyFor(test.info())}` } });
  return r.json() as Promise<{ waiting: boolean; pendingDecisionId: string | null }>;
}

test.describe("roles", () => {
  test("a viewer reads everything but sees no controls, and pages beyond the role say why", async ({ browser }) => {
    const viewer = await (await contextAs(browser, test.info(), "viewer")).newPage();
    await viewer.goto(`/runs/${HALTED_RUN}`);
    const panel = viewer.getByTestId("decision-panel");
    await expect(panel).toContainText("Needs you");
    await expect(viewer.getByTestId("decide-not-allowed")).toContainText("you are signed in as e2e-viewer, a viewer");
    await expect(panel.getByRole("button", { name: "Resume", exact: true })).toHaveCount(0);
    await expect(viewer.getByRole("region", { name: "Share with a reviewer" })).toHaveCount(0);
    const nav = viewer.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Runs" })).toBeVisible();
    for (const hidden of ["What if", "Shares", "Users", "Keys"]) await expect(nav.getByRole("link", { name: hidden })).toHaveCount(0);
    await viewer.goto("/what-if");
    await expect(viewer.getByTestId("not-allowed")).toContainText("needs the operator role");
    await viewer.goto("/settings/keys");
    await expect(viewer.getByTestId("not-allowed")).toContainText("needs the admin role");
    await viewer.goto("/settings");
    await expect(viewer.getByTestId("settings-read-only")).toBeVisible();
    await expect(viewer.getByRole("button", { name: /Save and re-evaluate/ })).toHaveCount(0);
  });

  test("an operator decides and shares, but manages neither users, keys nor settings", async ({ browser }) => {
    const op = await (await contextAs(browser, test.info(), "operator")).newPage();
    await op.goto(`/runs/${HALTED_RUN}`);
    await expect(op.getByTestId("decision-panel").getByRole("button", { name: "Resume", exact: true })).toBeVisible();
    await expect(op.getByRole("region", { name: "Share with a reviewer" })).toBeVisible();
    await op.goto("/settings/users");
    await expect(op.getByTestId("not-allowed")).toContainText("needs the admin role");
    await op.goto("/settings");
    await expect(op.getByTestId("settings-read-only")).toBeVisible();
  });

  test("calling the resume action directly: refused for a viewer, signed out, Origin null or another site; nothing changes", async ({ browser, playwright, baseURL }) => {
    expect(await controlState((await contextAs(browser, test.info(), "viewer")).request)).toMatchObject({ waiting: true, pendingDecisionId: null });
    const opContext = await contextAs(browser, test.info(), "operator");
    const op = await opContext.newPage();
    await op.goto(`/runs/${HALTED_RUN}`);
    const panel = op.getByTestId("decision-panel");
    await panel.getByLabel("Directive for the agent").fill("replayed by an attacker");
    const action = await captureAction(op, () => panel.getByRole("button", { name: "Resume", exact: true }).click());

    const viewerContext = await contextAs(browser, test.info(), "viewer");
    const asViewer = await replay(viewerContext.request, action);
    expect(asViewer.text).toContain("This needs the operator role; you are a viewer.");

    const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    // Without any session cookie the proxy already sends it to sign in; with a made-up one the action itself refuses.
    const noCookie = await replay(anonymous, action);
    expect(noCookie.status).toBe(307);
    const madeUp = await replay(anonymous, action, { cookie: `loopscope_session=lss_${"x".repeat(43)}` });
    expect(madeUp.text).toContain("You are signed out: sign in again.");

    // Next.js aborts an Origin that differs from the Host (an error digest); the action's own
    // check refuses the rest (and would refuse these too, were Next.js's check ever relaxed).
    const refused = /Refused: this request did not come from Loopscope's own pages\.|E\{"digest":"\d+"\}/;
    for (const origin of ["null", null, "https://evil.example", "http://127.0.0.1:1"]) {
      const r = await replay(opContext.request, action, { origin });
      expect(r.text, `Origin ${origin}`).toMatch(refused);
      expect(r.text).not.toContain('"status":"decided"');
    }
    expect((await replay(opContext.request, action, { origin: null })).text).toContain("Refused: this request did not come from Loopscope's own pages.");
    const rebinding = await replay(opContext.request, action, { origin: `http://rebind.attacker.example:${new URL(baseURL!).port}`, host: `rebind.attacker.example:${new URL(baseURL!).port}` });
    expect(rebinding.status).toBe(421);

    // Nothing was decided by any of them.
    expect(await controlState(viewerContext.request)).toMatchObject({ waiting: true, pendingDecisionId: null });
    await anonymous.dispose();
  });

  test("a viewer cannot create a share link by calling the action directly", async ({ browser }) => {
    const op = await (await contextAs(browser, test.info(), "operator")).newPage();
    await op.goto(`/runs/${HALTED_RUN}`);
    const action = await captureAction(op, () => op.getByRole("button", { name: "Create link" }).click());
    const viewer = await contextAs(browser, test.info(), "viewer");
    const r = await replay(viewer.request, action);
    expect(r.text).toContain("This needs the operator role; you are a viewer.");
    expect(r.text).not.toContain("/share/lsh_");
  });

  test("an operator cannot save detector settings by calling the admin's action", async ({ page, browser }) => {
    await page.goto("/settings");
    const action = await captureAction(page, () => page.getByRole("button", { name: /Save and re-evaluate/ }).click());
    const op = await contextAs(browser, test.info(), "operator");
    const r = await replay(op.request, action);
    expect(r.text).toContain("This needs the admin role; you are an operator.");
  });
});

test("a user's one-time link is no longer shown once that user is removed", async ({ page }) => {
  const name = `e2e-tmp-${Date.now().toString(36)}`;
  await page.goto("/settings/users");
  const add = page.getByRole("form", { name: "Add a user" });
  await add.getByLabel("User name").fill(name);
  await add.getByRole("button", { name: "Add and make a sign-in link" }).click();
  await expect(add.getByRole("status")).toContainText(`Added ${name} (viewer)`);
  await expect(add.getByTestId("admin-secret")).toHaveValue(/\/sign-in\/link\//);
  const row = page.locator(`tr[data-user="${name}"]`);
  await row.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog", { name: `Remove ${name}?` }).getByRole("button", { name: "Remove user" }).click();
  await expect(row).toHaveCount(0);
  await expect(add.getByRole("status")).toHaveCount(0);
  await expect(add.getByTestId("admin-secret")).toHaveCount(0);
});
