/**
 * The layout worker: ELK's own worker script, which answers elkjs's
 * `layout` messages off the main thread (it installs `self.onmessage` when it
 * finds itself in a worker). The main thread talks to it through
 * `elkjs/lib/elk-api` (elk-client.ts).
 */
import "elkjs/lib/elk-worker.js";
