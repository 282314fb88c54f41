// npm run demo: build, migrate, seed demo data, serve on http://localhost:3000.
import { buildIsFresh, nextBin, runStep, serve } from "./run-steps.js";

const port = Number(process.env.PORT ?? 3000);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
else console.log("▶ next build: up to date");
runStep("migrate the database", process.execPath, ["bin/loopscope.js", "migrate"], env);
runStep("ingest the sample runs (fixtures/ and demo/data/)", process.execPath, ["bin/loopscope.js", "ingest", "fixtures", "demo/data"], env);
console.log(`\n▶ serving Loopscope on http://localhost:${port}  (Ctrl-C to stop)\n`);
serve(port, "0.0.0.0", env);
