import { afterAll, beforeAll } from "vitest";
import { closeDb } from "../client";
import { createTestDb, type TestDatabase } from "./test-databases";

/**
 * For suites of code that reaches the database through the app's own handle
 * (`getPrisma`/`getSql`): a scratch database of `kind` made the app's
 * DATABASE_URL for the suite, and dropped after it. Returns a getter of it.
 */
export function useAppDatabase(kind: "sqlite" | "postgres"): () => TestDatabase {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDb(kind);
    process.env.DATABASE_URL = t.config.kind === "sqlite" ? `file:${t.config.file}` : t.config.url;
    await closeDb();
  });
  afterAll(async () => {
    await closeDb();
    await t.destroy();
  });
  return () => t;
}
