import { createServer } from "node:net";

/** The default port of the dashboard, taken when free. */
export const DEFAULT_PORT = 3000;

/** Whether nothing listens on `port` at `hostname` (it binds and lets go at once). */
export function isPortFree(port: number, hostname: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: hostname, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port the system has free now (it may be taken again before it is used; the server then says so). */
function findAnyFreePort(hostname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: hostname, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/** The port asked for (an error when it is taken), else 3000 when free, else any free port. */
export async function pickPort(asked: number | null, hostname: string): Promise<number> {
  if (asked !== null) {
    if (!(await isPortFree(asked, hostname))) throw new Error(`port ${asked} is in use: choose another with --port, or leave --port out to take a free one`);
    return asked;
  }
  return (await isPortFree(DEFAULT_PORT, hostname)) ? DEFAULT_PORT : findAnyFreePort(hostname);
}
