// Writes the SQLite and PostgreSQL Prisma schemas from prisma/models.prisma.
// A generated Prisma client is tied to one provider, so each gets its own
// schema and client; the models are written once.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Returns the schema text for one provider. */
export function composeSchema(provider) {
  const models = readFileSync(join(root, "prisma/models.prisma"), "utf8");
  // A literal URL keeps the schema loadable without env (an unset env() makes
  // the offline CLI fall back to downloading an engine); the app connects
  // through a driver adapter and never uses it.
  const url = provider === "sqlite" ? "file:../../data/unused.db" : "postgresql://localhost:5432/unused";
  return `// GENERATED from prisma/models.prisma by scripts/prisma-schemas.js; do not edit.
generator client {
  provider        = "prisma-client"
  output          = "../../lib/db/generated/${provider}"
  engineType      = "client"
  moduleFormat    = "esm"
}

datasource db {
  provider = "${provider === "sqlite" ? "sqlite" : "postgresql"}"
  url      = "${url}"
}

${models}`;
}

/** Writes both schemas; returns their paths. */
export function writeSchemas() {
  const out = {};
  for (const provider of ["sqlite", "postgres"]) {
    const path = join(root, "prisma", provider, "schema.prisma");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, composeSchema(provider));
    out[provider] = path;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = writeSchemas();
  console.log(`wrote ${paths.sqlite} and ${paths.postgres}`);
}
