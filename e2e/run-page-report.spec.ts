import { expect, test } from "@playwright/test";

const HOSTILE_RUN = "e2e0bad0-5c71-4e3a-9d2b-6f1a2b3c4d5e";

test.describe("a report written by a hostile agent", () => {
  test("is shown as text: nothing runs, nothing loads, no unsafe link survives", async ({ page, baseURL }) => {
    const offsite: string[] = [];
    const sameSiteImages: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.origin !== new URL(baseURL!).origin) offsite.push(r.url());
      else if (r.resourceType() === "image" || url.pathname === "/api/health") sameSiteImages.push(r.url());
    });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });

    await page.goto(`/runs/${HOSTILE_RUN}`);
    const report = page.getByRole("article", { name: "Report" });
    await expect(report.getByRole("heading", { name: "Plan" })).toBeVisible();

    // The raw HTML is there to read, as text.
    await expect(report).toContainText("<script>window.__pwned = 'script-tag';");
    await expect(report).toContainText(`<img src="https://tracker.example/pixel.png" onerror=`);
    await expect(report).toContainText("<svg onload=");
    // The stop reason's HTML is text in the header too.
    await expect(page.getByRole("region", { name: "Run summary" })).toContainText(`<img src=x onerror="window.__pwned='stop-reason'">`);

    // Nothing executable or loadable made it into the DOM.
    const found = await page.locator("main").evaluate((main) => {
      const all = [...main.querySelectorAll("*")];
      return {
        // The share and export panels (operators' own forms, below the report) are Loopscope's, not the agent's.
        active: [...main.querySelectorAll("script, iframe, img, svg image, object, embed, video, audio, source, link, style, form, input:not([type=checkbox])")].filter((el) => !el.closest("#share, #export")).length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.toLowerCase().startsWith("on")).map((a) => `${el.tagName}[${a.name}]`)),
        styles: all.filter((el) => el.closest("article") && el.hasAttribute("style")).length,
        hrefs: [...main.querySelectorAll("article a[href]")].map((a) => a.getAttribute("href")!),
      };
    });
    expect(found.active).toBe(0);
    expect(found.handlers).toEqual([]);
    expect(found.styles).toBe(0);
    for (const href of found.hrefs) expect(href).toMatch(/^(https:\/\/|mailto:|#)/);

    // Unsafe links are kept as text without a target; the safe one stays a link.
    await expect(report.getByRole("link", { name: "the docs" })).toHaveAttribute("href", "https://example.com/docs");
    await expect(report.getByRole("link", { name: "the docs" })).toHaveAttribute("rel", /noopener/);
    for (const text of ["a javascript link", "an entity-hidden one", "a data link", "a vbscript one"]) {
      await expect(report.getByText(text, { exact: true })).toBeVisible();
      await expect(report.getByRole("link", { name: text })).toHaveCount(0);
    }
    // Images are links to their address, never loaded; a relative one has no address left.
    await expect(report.getByRole("link", { name: "image: tracking pixel" })).toHaveAttribute("href", "https://tracker.example/track.gif?run=e2e");
    await expect(report.getByText("image: local")).toBeVisible();
    await expect(report.getByRole("link", { name: "image: local" })).toHaveCount(0);

    // Poke at it like a person would.
    await report.getByText("hover trap").hover();
    await report.getByText("a javascript link", { exact: true }).click();
    await report.getByText("bold").first().click();
    await page.waitForTimeout(300);

    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(offsite).toEqual([]);
    expect(sameSiteImages).toEqual([]);
    await expect(page).toHaveURL(new RegExp(`/runs/${HOSTILE_RUN}$`));

    // What is code stays code, what is a table stays a table.
    await expect(report.locator("pre code")).toContainText("window.__pwned = 'inside a code block, shown as code'");
    await expect(report.getByRole("table")).toContainText("<script>window.__pwned='table'</script>");
    await expect(page.getByLabel("Loop evidence in the report")).toContainText("Commands budget used up: 12 / 12");
    await report.screenshot({ path: "test-results/screens/run-page-hostile-report.png" });
  });
});
