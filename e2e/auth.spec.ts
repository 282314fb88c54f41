import { expect, test, type Browser } from "@playwright/test";
import { apiKeyFor, loopscopeCli, signInThroughPage } from "./support";

const HALTED_RUN = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };

/** A throw-away user (viewer) made through the CLI, with its password on stdin as a script would. */
function makeUser(role = "viewer"): { name: string; password: string } {
  const name = `e2e-tmp-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = `pw-${name}-secret`;
  const out = loopscopeCli(test.info(), ["user", "add", name, "--role", role], `${password}\n`);
  expect(out).toContain(`added ${name} (${role})`);
  return { name, password };
}

const freshContext = (browser: Browser, extra: Record<string, string> = {}) =>
  browser.newContext({ baseURL: String(test.info().project.use.baseURL), ...SIGNED_OUT, extraHTTPHeaders: extra });

test.describe("signing in", () => {
  test.use(SIGNED_OUT);

  test("a signed-out browser is sent to sign in from every page, and read APIs refuse it", async ({ page, request }) => {
    for (const path of ["/", "/runs", `/runs/${HALTED_RUN}`, "/trends", "/what-if", "/settings", "/shares", "/settings/users", "/account"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/sign-in\?next=/);
    }
    // An API key (even of scope ingest+control) opens none of them: keys are for the machine routes.
    const key = { authorization: `Bearer ${apiKeyFor(test.info())}` };
    for (const path of ["/api/runs", `/api/runs/${HALTED_RUN}/graph`, `/api/runs/${HALTED_RUN}/events`, `/api/runs/${HALTED_RUN}/graph/nodes/planner`]) {
      expect((await request.get(path)).status(), path).toBe(401);
      expect((await request.get(path, { headers: key })).status(), path).toBe(401);
    }
    expect((await request.get(`/runs/${HALTED_RUN}`, { headers: key, maxRedirects: 0 })).status()).toBe(307);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in with E2E SSO" })).toBeVisible();
  });

  test("a wrong password is refused without saying whether the name exists; the right one leads back to the page", async ({ page }) => {
    const user = makeUser();
    await page.goto(`/runs/${HALTED_RUN}`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("User name").fill(user.name);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("form.sign-in-form")).toHaveAttribute("data-attempt", "1");
    await expect(page.locator(".form-error")).toHaveText("Wrong user name or password.");
    await expect(page.getByLabel("User name")).toHaveValue(user.name);
    await page.getByLabel("User name").fill("no-such-user-at-all");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("form.sign-in-form")).toHaveAttribute("data-attempt", "2");
    await expect(page.locator(".form-error")).toHaveText("Wrong user name or password.");
    await page.getByLabel("User name").fill(user.name);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${HALTED_RUN}$`));
    await expect(page.getByTestId("signed-in-as")).toContainText(user.name);
    await expect(page.getByTestId("signed-in-as")).toContainText("viewer");
  });

  test("repeated failed sign-ins from one client are slowed down", async ({ browser }) => {
    // A client of its own (its proxy-reported address), so the slow-down does not reach other tests.
    const context = await freshContext(browser, { "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 200) + 20}` });
    const page = await context.newPage();
    const user = makeUser();
    await page.goto("/sign-in");
    const messages: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.getByLabel("User name").fill(user.name);
      await page.getByLabel("Password").fill(`wrong ${i}`);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.locator("form.sign-in-form")).toHaveAttribute("data-attempt", String(i + 1));
      messages.push((await page.locator(".form-error").textContent()) ?? "");
    }
    expect(messages.slice(0, 5).every((m) => m === "Wrong user name or password.")).toBe(true);
    expect(messages[5]).toMatch(/Too many failed sign-ins: try again in \d+ s/);
    expect(messages[6]).toMatch(/Too many failed sign-ins/);
    // Even the right password waits out the slow-down.
    await page.getByLabel("User name").fill(user.name);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("form.sign-in-form")).toHaveAttribute("data-attempt", "8");
    await expect(page.locator(".form-error")).toContainText("Too many failed sign-ins");
    await context.close();
  });

  test("sign out ends this browser's session; sign out everywhere ends them all", async ({ browser }) => {
    const user = makeUser();
    const a = await (await freshContext(browser)).newPage();
    const b = await (await freshContext(browser)).newPage();
    const c = await (await freshContext(browser)).newPage();
    for (const p of [a, b, c]) await signInThroughPage(p, user.name, user.password);

    await c.getByRole("button", { name: "Sign out" }).click();
    await expect(c).toHaveURL(/\/sign-in/);
    await c.goto("/runs");
    await expect(c).toHaveURL(/\/sign-in/);
    await a.goto("/runs");
    await expect(a.getByTestId("signed-in-as")).toContainText(user.name);

    await a.goto("/account");
    await expect(a.getByRole("heading", { name: /Signed-in sessions \(2\)/ })).toBeVisible();
    await a.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(a).toHaveURL(/\/sign-in\?signedOut=everywhere/);
    await expect(a.getByRole("status")).toContainText("signed out on every device");
    await b.goto("/runs");
    await expect(b).toHaveURL(/\/sign-in/);
    expect((await b.request.get("/api/runs")).status()).toBe(401);
  });

  test("a one-time sign-in link signs in once, then sets a password; removing the user ends their sessions", async ({ browser }) => {
    const name = `e2e-link-${Date.now().toString(36)}`;
    expect(loopscopeCli(test.info(), ["user", "add", name, "--role", "operator", "--no-password"])).toContain(`added ${name} (operator)`);
    const url = loopscopeCli(test.info(), ["user", "link", name]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign-in\/link\/lsl_[A-Za-z0-9_-]{43}$/);
    const path = new URL(url).pathname;

    const page = await (await freshContext(browser)).newPage();
    // Opening the link (as a mail scanner would) does not use it: the button does.
    await page.goto(path);
    await page.goto(path);
    await page.getByRole("button", { name: "Continue and sign in" }).click();
    await expect(page).toHaveURL(/\/account\?welcome=1/);
    await expect(page.getByTestId("signed-in-as")).toContainText(name);
    await page.getByLabel("Password", { exact: true }).fill("a long new password");
    await page.getByLabel("Repeat it").fill("a long new password");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Password saved." })).toBeVisible();

    const again = await (await freshContext(browser)).newPage();
    expect((await again.goto(path))!.status()).toBe(404);
    await expect(again.getByRole("heading", { name: "This sign-in link cannot be used" })).toBeVisible();
    await signInThroughPage(again, name, "a long new password");

    expect(loopscopeCli(test.info(), ["user", "remove", name])).toContain(`removed ${name}`);
    for (const p of [page, again]) {
      await p.goto("/runs");
      await expect(p).toHaveURL(/\/sign-in/);
    }
  });
});

test.describe("Host and Origin", () => {
  test("pages and browser APIs answer only for this server's own names (DNS rebinding)", async ({ request, baseURL }) => {
    const port = new URL(baseURL!).port;
    for (const path of ["/sign-in", "/runs", "/api/runs", `/share/lsh_${"a".repeat(43)}`]) {
      const r = await request.get(path, { headers: { host: `rebind.attacker.example:${port}` }, maxRedirects: 0 });
      expect(r.status(), path).toBe(421);
    }
    // LOOPSCOPE_URL names 127.0.0.1:<port> here: that is the only name answered, loopback aliases included.
    expect((await request.get("/runs", { headers: { host: `localhost:${port}` }, maxRedirects: 0 })).status()).toBe(421);
    expect((await request.get("/runs", { headers: { host: `127.0.0.1:${port}` }, maxRedirects: 0 })).status()).toBe(200);
    // Agents on other hosts still reach the machine routes (keys authorise them).
    expect((await request.get("/api/health", { headers: { host: `10.1.2.3:${port}` } })).status()).toBe(200);
  });

  test("every page carries a nonce-based Content-Security-Policy", async ({ page }) => {
    for (const path of ["/runs", `/runs/${HALTED_RUN}`, "/settings"]) {
      const response = await page.goto(path);
      const csp = response!.headers()["content-security-policy"];
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).toContain("object-src 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)![1];
      // Every script the server sent carries this response's nonce (the browser runs no other).
      const tags = (await response!.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    }
  });
});
