import { expect, test } from "@playwright/test";
import { apiKeyFor } from "./support";

const key = () => apiKeyFor(test.info());
const event = (runId: string, id: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ v: 1, id, runId, ts: `2026-11-01T10:00:${id.padStart(2, "0").slice(-2)}.000Z`, type: "node.completed", node: "coder", tokens: 10, ...fields });

test.describe("POST /api/ingest", () => {
  test("401 without a valid key", async ({ request }) => {
    const none = await request.post("/api/ingest", { data: event("api-auth", "1") });
    expect(none.status()).toBe(401);
    const wrong = await request.post("/api/ingest", { data: event("api-auth", "1"), headers: { authorization: "Bearer lsk_not-a-key" } });
    expect(wrong.status()).toBe(401);
    expect((await wrong.json()).error).toMatch(/API key/);
  });

  test("200 when all stored, 207 with per-line errors, the rest stored", async ({ request, page }) => {
    const headers = { authorization: `Bearer ${key()}`, "content-type": "application/x-ndjson" };
    const ok = await request.post("/api/ingest", { headers, data: [event("api-run", "1"), event("api-run", "2")].join("\n") });
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toMatchObject({ stored: 2, duplicate: 0, rejected: 0, runs: ["api-run"] });

    const mixed = await request.post("/api/ingest", {
      headers,
      data: [event("api-run", "3"), "{oops", event("api-run", "4", { tokens: "lots" }), event("api-run", "5"), event("api-run", "1")].join("\n"),
    });
    expect(mixed.status()).toBe(207);
    const body = await mixed.json();
    expect(body).toMatchObject({ stored: 2, duplicate: 1, rejected: 2 });
    expect(body.errors).toEqual([
      { line: 2, message: expect.stringMatching(/^not JSON/) },
      { line: 3, message: 'field "tokens" must be a number (got string)' },
    ]);
    // The stored lines and the rejected ones both show on the runs page.
    await page.goto("/runs");
    await expect(page.getByRole("region", { name: /Ingest errors/ })).toContainText("api:e2e:3");
  });

  test("413 above the size limit, before parsing", async ({ request }) => {
    const huge = "x".repeat(9 * 1024 * 1024);
    const r = await request.post("/api/ingest", { headers: { authorization: `Bearer ${key()}` }, data: huge });
    expect(r.status()).toBe(413);
    expect((await r.json()).error).toMatch(/over the limit/);
  });

  test("the same batch sent three times at once is stored once", async ({ request }) => {
    const headers = { authorization: `Bearer ${key()}` };
    const batch = Array.from({ length: 200 }, (_, i) => event("api-concurrent", String(i + 1), { ts: new Date(Date.UTC(2026, 10, 1, 12, 0, i)).toISOString() })).join("\n");
    const answers = await Promise.all([1, 2, 3].map(() => request.post("/api/ingest", { headers, data: batch })));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(answers.map((a) => a.status())).toEqual([200, 200, 200]);
    expect(bodies.reduce((n, b) => n + b.stored, 0)).toBe(200);
    expect(bodies.reduce((n, b) => n + b.duplicate, 0)).toBe(400);
  });
});
