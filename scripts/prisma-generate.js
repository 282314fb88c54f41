// postinstall: writes both provider schemas and generates their clients
// (offline: Prisma 6.19's client generator needs no engine download).
import { execFileSync } from "node:child_process";
import { writeSchemas } from "./prisma-schemas.js";

const paths = writeSchemas();
for (const provider of ["sqlite", "postgres"]) {
  execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", paths[provider]], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
  });
}
console.log("prisma: generated the sqlite and postgres clients in lib/db/generated/");
