// npm runs this after installing. In a clone of the repository (the Prisma
// models are there) it generates the Prisma clients the code imports. An
// installed package has nothing to do: its production build and its CLI were
// bundled by `npm pack` (scripts/prepack.js), so installing never builds.
import { existsSync } from "node:fs";

if (existsSync(new URL("../prisma/models.prisma", import.meta.url))) {
  await import("./prisma-generate.js");
}
