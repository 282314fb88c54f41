import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";

/** A browser that never signed in. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: String(test.info().project.use.baseURL), storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

/** What the browser says about a field it refuses ("" when it accepts it). */
function validationMessage(field: Locator): Promise<string> {
  return field.evaluate((el) => (el as HTMLInputElement).validationMessage);
}

/** Sends one event with `key`; returns the HTTP status. */
async function ingestWith(page: Page, key: string): Promise<number> {
  const runId = `e2e-key-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const line = JSON.stringify({ v: 1, id: `${runId}-start`, runId, ts: new Date().toISOString(), type: "run.started", title: "confirm-key check" });
  return (await page.request.post("/api/ingest", { headers: { authorization: `Bearer ${key}` }, data: line })).status();
}

test.describe("admin settings: help, refusals and the confirm step", () => {
  test("API keys: the expiry says its format; a refused expiry is marked and focused; revoking asks first", async ({ page }) => {
    await page.goto("/settings/keys");
    const form = page.getByRole("form", { name: "Create an API key" });
    const days = form.getByLabel("Expires after (days)");
    await expect(form.getByText("A whole number of days from 1 to 3650, e.g. 90. Leave empty for a key that never expires.")).toBeVisible();
    await expect(days).toHaveAccessibleDescription(/from 1 to 3650/);

    // The browser refuses "-3" and its bubble carries the title, which says what is allowed.
    const name = `e2e-confirm-key-${Date.now().toString(36)}`;
    await form.getByLabel("Name", { exact: true }).fill(name);
    await days.fill("-3");
    await form.getByRole("button", { name: "Create key" }).click();
    expect(await validationMessage(days)).not.toBe("");
    await expect(days).toHaveAttribute("title", /1 to 3650 \(digits only\), or empty/);
    await expect(form.getByRole("status")).toHaveCount(0);

    // The server refuses 5000 days: the field is marked, described by the message, and focused.
    await days.fill("5000");
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(form.getByRole("alert")).toHaveText("Expiry: at most 3650 days");
    await expect(days).toHaveAttribute("aria-invalid", "true");
    await expect(days).toHaveAccessibleDescription(/^Expiry: at most 3650 days/);
    await expect(days).toBeFocused();
    // What was typed is still there to correct.
    await expect(days).toHaveValue("5000");
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(page.getByTestId("api-keys").locator("tr", { hasText: name })).toHaveCount(0);

    await form.getByLabel("Name", { exact: true }).fill(name);
    await days.fill("30");
    await form.getByRole("button", { name: "Create key" }).click();
    const key = await form.getByTestId("admin-secret").inputValue();
    await expect(days).not.toHaveAttribute("aria-invalid");
    expect(await ingestWith(page, key)).toBe(200);

    // Cancel and Escape leave the key active and working.
    const row = page.getByTestId("api-keys").locator("tr", { hasText: name });
    const revoke = row.getByRole("button", { name: "Revoke", exact: true });
    const confirm = page.getByRole("dialog", { name: new RegExp(`^Revoke the key lsk_.*\\(${name}\\)\\?$`) });
    await revoke.click();
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("refused from their next request on");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(revoke).toBeFocused();
    await revoke.click();
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await page.reload();
    await expect(row).toContainText("active");
    expect(await ingestWith(page, key)).toBe(200);

    // Confirming revokes it, as the one click did: refused from the next request on.
    await revoke.click();
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("revoked by e2e-admin");
    await expect(row.getByRole("button", { name: "Revoke", exact: true })).toHaveCount(0);
    expect(await ingestWith(page, key)).toBe(401);
  });

  test("users: the name says its format; a refused name is marked and focused; removing asks first and then ends the sessions", async ({ page, browser }) => {
    await page.goto("/settings/users");
    const form = page.getByRole("form", { name: "Add a user" });
    const userName = form.getByLabel("User name");
    await expect(form.getByText(/1–64 letters, digits and \. _ @ - \(no spaces\), starting with a letter or digit; capitals are stored as lower case/)).toBeVisible();
    await expect(userName).toHaveAccessibleDescription(/no spaces/);

    // The browser refuses "temp user!" and its bubble carries the title.
    await userName.fill("temp user!");
    await form.getByRole("button", { name: "Add and make a sign-in link" }).click();
    expect(await validationMessage(userName)).not.toBe("");
    await expect(userName).toHaveAttribute("title", "1–64 letters, digits and . _ @ - (no spaces), starting with a letter or digit");
    await expect(page.locator('tr[data-user="temp user!"]')).toHaveCount(0);

    // The server refuses a name already taken: marked, described by the message, focused.
    await userName.fill("e2e-viewer");
    await form.getByLabel("Role").selectOption("admin");
    await form.getByRole("button", { name: "Add and make a sign-in link" }).click();
    await expect(form.getByRole("alert")).toHaveText("a user named e2e-viewer already exists");
    await expect(userName).toHaveAttribute("aria-invalid", "true");
    await expect(userName).toHaveAccessibleDescription(/^a user named e2e-viewer already exists/);
    await expect(userName).toBeFocused();
    // Nothing typed or chosen is lost (a role silently back to its default would be worse).
    await expect(userName).toHaveValue("e2e-viewer");
    await expect(form.getByLabel("Role")).toHaveValue("admin");

    // A new user signs in with their link.
    const name = `e2e-rm-${Date.now().toString(36)}`;
    await userName.fill(name);
    await form.getByLabel("Role").selectOption("operator");
    await form.getByRole("button", { name: "Add and make a sign-in link" }).click();
    const link = await form.getByTestId("admin-secret").inputValue();
    await expect(userName).not.toHaveAttribute("aria-invalid");
    const them = await freshPage(browser);
    await them.goto(new URL(link).pathname);
    await them.getByRole("button", { name: "Continue and sign in" }).click();
    await expect(them.getByTestId("signed-in-as")).toContainText(name);

    // Cancel and Escape leave the user and their session.
    const row = page.locator(`tr[data-user="${name}"]`);
    const remove = row.getByRole("button", { name: "Remove", exact: true });
    const confirm = page.getByRole("dialog", { name: `Remove ${name}?` });
    await page.reload();
    await expect(row).toHaveCount(1);
    await remove.click();
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("Their sessions end at once");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
    await remove.click();
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await page.reload();
    await expect(row).toHaveCount(1);
    await them.goto("/runs");
    await expect(them).toHaveURL(/\/runs/);
    await expect(them.getByTestId("signed-in-as")).toContainText(name);

    // Confirming removes them, as the one click did, and ends their session.
    await remove.click();
    await confirm.getByRole("button", { name: "Remove user" }).click();
    await expect(row).toHaveCount(0);
    await them.goto("/runs");
    await expect(them).toHaveURL(/\/sign-in/);
  });
});
