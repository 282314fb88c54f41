import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import Provider from "oidc-provider";

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, the
 * certified implementation) started here on the port the e2e server's
 * LOOPSCOPE_OIDC_ISSUER names (its own port + 30).
 */
let server: Server | null = null;

test.beforeAll(async () => {
  const info = test.info();
  const appPort = Number(new URL(String(info.project.use.baseURL)).port);
  const issuer = `http://127.0.0.1:${appPort + 30}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: "loopscope-e2e",
      client_secret: "e2e-oidc-client-secret-0123456789",
      redirect_uris: [`http://127.0.0.1:${appPort}/api/auth/oidc/callback`, `http://localhost:${appPort}/api/auth/oidc/callback`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    }],
    claims: { openid: ["sub"], profile: ["preferred_username", "name"], email: ["email"] },
    // The ID token carries the profile claims (Loopscope reads them from it, not from userinfo).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          return { sub: `sub-${id}`, preferred_username: id, name: id, email: `${id}@sso.example.test` };
        },
      };
    },
  });
  server = createServer(provider.callback());
  await new Promise<void>((resolve) => server!.listen(appPort + 30, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

test.use({ storageState: { cookies: [], origins: [] } });

test("signs in through the provider; a new SSO user is a viewer; the same account signs in again as the same user", async ({ page, browser, baseURL }) => {
  const login = `sso-${Date.now().toString(36)}`;
  await page.goto("/trends");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Ftrends/);
  await page.getByRole("link", { name: "Sign in with E2E SSO" }).click();

  // The provider's own pages.
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(new RegExp(`${baseURL}/trends$`));
  await expect(page.getByTestId("signed-in-as")).toContainText(login);
  await expect(page.getByTestId("signed-in-as")).toContainText("viewer");
  await page.goto("/account");
  await expect(page.locator("main")).toContainText("signs in with single sign-on");
  await expect(page.locator("main")).toContainText(`${login}@sso.example.test`);

  // A second browser: the provider's session is new there too; the same subject maps to the same user.
  const other = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const p2 = await other.newPage();
  await p2.goto("/sign-in");
  await p2.getByRole("link", { name: "Sign in with E2E SSO" }).click();
  await p2.locator('input[name="login"]').fill(login);
  await p2.locator('input[name="password"]').fill("anything");
  await p2.getByRole("button", { name: "Sign-in" }).click();
  await p2.getByRole("button", { name: "Continue" }).click();
  await expect(p2.getByTestId("signed-in-as")).toContainText(login);
  await p2.goto("/account");
  await expect(p2.getByRole("heading", { name: /Signed-in sessions \(2\)/ })).toBeVisible();
  await other.close();
});

test("a callback that was not started here, or with a forged state, signs nobody in", async ({ page }) => {
  await page.goto("/api/auth/oidc/callback?code=forged&state=forged");
  await expect(page).toHaveURL(/\/sign-in\?error=oidc_state/);
  await expect(page.locator(".form-error")).toContainText("Single sign-on took too long or was started in another tab");
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/sign-in/);
});
