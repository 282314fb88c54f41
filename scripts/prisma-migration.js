// Creates a migration for both providers from the change in prisma/models.prisma
// since the last migration: `node scripts/prisma-migration.js <name>`.
// `prisma migrate dev` needs a shadow database through the native engine, which
// is not available offline, so each migration keeps the schema it was made
// from and the next one is diffed against that snapshot.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { writeSchemas } from "./prisma-schemas.js";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: node scripts/prisma-migration.js <snake_case_name>");
  process.exit(2);
}
const paths = writeSchemas();
// The CLI's adapter opens a scratch database there (prisma.config.ts); on a fresh clone the folder is missing.
mkdirSync("data", { recursive: true });
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
for (const provider of ["sqlite", "postgres"]) {
  const dir = join("prisma/migrations", provider);
  mkdirSync(dir, { recursive: true });
  const previous = readdirSync(dir).filter((d) => existsSync(join(dir, d, "schema.prisma"))).sort().at(-1);
  const from = previous ? ["--from-schema-datamodel", join(dir, previous, "schema.prisma")] : ["--from-empty"];
  const sql = execFileSync(
    process.execPath,
    ["node_modules/prisma/build/index.js", "migrate", "diff", ...from, "--to-schema-datamodel", paths[provider], "--script"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (!/\S/.test(sql.replace(/^--.*$/gm, ""))) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const out = join(dir, `${stamp}_${name}`);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "migration.sql"), sql);
  copyFileSync(paths[provider], join(out, "schema.prisma"));
  console.log(`${provider}: wrote ${out}/migration.sql`);
}
