import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composeSchema } from "./prisma-schemas.js";

const root = join(__dirname, "..");

describe("committed migrations", () => {
  for (const provider of ["sqlite", "postgres"] as const) {
    it(`are up to date with prisma/models.prisma for ${provider}`, () => {
      const dir = join(root, "prisma/migrations", provider);
      const latest = readdirSync(dir).filter((d) => existsSync(join(dir, d, "schema.prisma"))).sort().at(-1);
      expect(latest, "no migration yet").toBeTruthy();
      const snapshot = readFileSync(join(dir, latest!, "schema.prisma"), "utf8");
      // A model change without `node scripts/prisma-migration.js <name>` would ship a schema no migration creates.
      expect(composeSchema(provider)).toBe(snapshot);
    });
  }
});
