// Prisma CLI configuration. The JS engine with a driver adapter is the only
// setup that runs offline (the native schema engine is a download): see
// shared/notes/toolchain.md.
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/sqlite/schema.prisma",
  adapter: async () => new PrismaBetterSQLite3({ url: process.env.LOOPSCOPE_PRISMA_CLI_DB ?? "file:./data/prisma-cli.db" }),
});
