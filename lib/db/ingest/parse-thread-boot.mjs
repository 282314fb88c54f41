// The parse thread's entry when Loopscope runs from its TypeScript sources:
// a worker thread does not inherit the tsx loader of the thread that started
// it, so it registers its own before loading the thread's code.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register({ tsconfig: workerData.tsconfig });
await import(workerData.entry);
