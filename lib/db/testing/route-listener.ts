import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { POST as ingest } from "@/app/api/ingest/route";
import { GET as control } from "@/app/api/runs/[runId]/control/route";
import { POST as ack } from "@/app/api/runs/[runId]/control/ack/route";
import { GET as state } from "@/app/api/runs/[runId]/control/state/route";

type Handler = (request: Request, ctx: { params: Promise<{ runId: string }> }) => Promise<Response>;

const ROUTES: [string, RegExp, Handler][] = [
  ["POST", /^\/api\/ingest$/, (r) => ingest(r)],
  ["GET", /^\/api\/runs\/([^/]+)\/control$/, control],
  ["POST", /^\/api\/runs\/([^/]+)\/control\/ack$/, ack],
  ["GET", /^\/api\/runs\/([^/]+)\/control\/state$/, state],
];

/**
 * A real HTTP server in the test process that serves the app's ingest and
 * control route handlers (the same modules `next start` serves), so the client
 * can be tested across a server that stops and starts again on the same port.
 * The database is the one `DATABASE_URL` names.
 */
export class RouteListener {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Set<Promise<void>>();
  port = 0;
  /** JSON answers of POST /api/ingest, in order. */
  readonly ingestAnswers: { stored: number; duplicate: number }[] = [];
  /** When set, the next ingest request is stored and then its connection is cut before the answer. */
  dropNextIngestAnswer = false;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const handled = this.handle(req, res).finally(() => this.inFlight.delete(handled));
      this.inFlight.add(handled);
    });
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /**
   * Stops like a crashed server: open connections, long-polls included, are
   * cut. Handlers already running finish (their answers go nowhere), so that
   * no database work outlives the test.
   */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([...this.inFlight]);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const route = ROUTES.find(([method, path]) => method === req.method && path.test(url.pathname));
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const hangUp = new AbortController();
    res.on("close", () => hangUp.abort());
    const request = new Request(url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
      signal: hangUp.signal,
    });
    const runId = decodeURIComponent(route[1].exec(url.pathname)?.[1] ?? "");
    const response = await route[2](request, { params: Promise.resolve({ runId }) });
    const body = Buffer.from(await response.arrayBuffer());
    if (route[1].source.includes("ingest")) {
      this.ingestAnswers.push(JSON.parse(body.toString()) as { stored: number; duplicate: number });
      if (this.dropNextIngestAnswer) {
        this.dropNextIngestAnswer = false;
        req.socket.destroy();
        return;
      }
    }
    if (res.destroyed) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  }
}
