// The visits bench/graph/run.js times, in a signed-in browser context:
// a page load until the graph is drawn and takes input, a click until the
// inspector shows the node, "Expand all", and pan, zoom and click on a big
// graph. Each input is timed in the page from its own event (probes.js).
import { collectTrace, measureAnswer, measureViewportChange } from "./probes.js";

/** The visits against the server at `base`. */
export function createVisits(base) {
  const READY = '[data-testid="run-graph"][data-layout="ready"]';

  /** Waits until the graph is drawn and takes input (laid out, a node focusable and sized); returns ms since navigation. */
  async function waitReady(page) {
    const ready = await page.waitForFunction(
      (sel) => {
        const node = document.querySelector(sel)?.querySelector(".react-flow__node[tabindex]");
        return node && node.getBoundingClientRect().width > 0 ? performance.now() : null;
      },
      READY,
      { polling: "raf", timeout: 120_000 },
    );
    return ready.jsonValue();
  }

  /** The id of a node of `kind` wholly inside the canvas, or null. */
  function findShownNode(page, kind) {
    return page.evaluate((k) => {
      const canvas = document.querySelector(".run-graph-canvas")?.getBoundingClientRect();
      const shown = [...document.querySelectorAll(`.react-flow__node-${k}`)].find((n) => {
        const r = n.getBoundingClientRect();
        return canvas && r.width > 0 && r.left >= canvas.left && r.right <= canvas.right && r.top >= canvas.top && r.bottom <= canvas.bottom - 40;
      });
      return shown?.getAttribute("data-id") ?? null;
    }, kind);
  }

  /** Counts from the toolbar (`1000 nodes · 5000 edges · 100 loops`). */
  async function readCounts(page) {
    const text = await page.locator(".run-graph-counts").first().innerText();
    const n = /(\d+) nodes?/.exec(text);
    const e = /(\d+) edges?/.exec(text);
    return { nodes: Number(n?.[1] ?? 0), edges: Number(e?.[1] ?? 0) };
  }

  /**
   * A click on a node on screen, timed in the page from the click event to the
   * frame that shows the inspector with the node's figures. On a graph that
   * opens with its loops collapsed, a loop is expanded first (timed too).
   */
  async function clickNode(page) {
    let expand = null;
    let id = await findShownNode(page, "agent");
    if (!id) {
      const loop = await findShownNode(page, "loop");
      if (!loop) return { click: null, expand: null, evidence: null };
      expand = await measureAnswer(page, `${READY} .react-flow__node-agent`, () => page.locator(`.react-flow__node[data-id="${loop}"]`).click());
      await waitReady(page);
      id = await findShownNode(page, "agent");
    }
    if (!id) return { click: null, expand, evidence: null };
    const click = await measureAnswer(page, `[data-testid="node-inspector"] .inspector-facts`, () => page.locator(`.react-flow__node[data-id="${id}"]`).click());
    // The loop evidence (events read on the server) follows: timed from the same click.
    const evidence = await page.evaluate(async () => {
      const end = performance.now() + 60_000;
      while (!document.querySelector('[data-testid="node-inspector"] [data-testid="output-hashes"]') && performance.now() < end) await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - window.__benchLastClick;
    });
    return { click, expand, evidence };
  }

  /** One visit: ready, where the time went, then a click. */
  async function visit(context, runId) {
    const page = await context.newPage();
    await page.goto(`${base}/runs/${encodeURIComponent(runId)}`, { waitUntil: "commit" });
    const readyMs = await waitReady(page);
    const trace = await collectTrace(page, readyMs);
    const counts = await readCounts(page);
    const info = await page.evaluate(() => ({
      drawn: document.querySelectorAll(".react-flow__node").length,
      positions: [...document.querySelectorAll(".react-flow__node")].map((n) => `${n.getAttribute("data-id")}@${n.style.transform}`).sort().join(),
    }));
    const { click, expand, evidence } = await clickNode(page);
    await page.close();
    return { readyMs, trace, counts, click, expand, evidence, ...info };
  }

  /** "Expand all" on a graph that opened collapsed: from the click until every node is drawn as itself and laid out. */
  async function expandAll(context, runId) {
    const page = await context.newPage();
    await page.goto(`${base}/runs/${encodeURIComponent(runId)}`, { waitUntil: "commit" });
    await waitReady(page);
    const done = page.evaluate(() => new Promise((resolveDone) => {
      const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Expand all");
      button.addEventListener("click", (event) => {
        const t0 = event.timeStamp;
        const check = () => {
          const graph = document.querySelector('[data-testid="run-graph"]');
          const expanded = graph && !/drawn as/.test(graph.querySelector(".run-graph-counts")?.textContent ?? "drawn as");
          if (expanded && graph.getAttribute("data-layout") === "ready" && graph.querySelector(".react-flow__node-agent") && !graph.querySelector(".react-flow__node-loop")) {
            resolveDone({ ms: performance.now() - t0, rendered: graph.querySelectorAll(".react-flow__node").length });
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }, { once: true, capture: true });
    }));
    await page.getByRole("button", { name: "Expand all" }).click();
    const result = await done;
    await page.close();
    return result;
  }

  /** Pan, zoom and a click on the graph as it opened, each timed in the page to the frame that shows it. */
  async function measureResponsive(context, runId) {
    const page = await context.newPage();
    await page.goto(`${base}/runs/${encodeURIComponent(runId)}`, { waitUntil: "commit" });
    await waitReady(page);
    await page.locator(".run-graph-canvas").scrollIntoViewIfNeeded();
    const box = await page.locator(".run-graph-canvas .react-flow__pane").boundingBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const pans = [];
    const zooms = [];
    // Each input on a settled page: the frames of the one before are not counted against the next.
    const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150)))));
    for (let i = 0; i < 5; i++) {
      await page.mouse.move(cx, cy);
      await settle();
      await page.mouse.down();
      pans.push(await measureViewportChange(page, "pointermove", () => page.mouse.move(cx - 120, cy - 40, { steps: 4 })));
      await page.mouse.up();
      await settle();
      zooms.push(await measureViewportChange(page, "wheel", () => page.mouse.wheel(0, i % 2 === 0 ? -240 : 200)));
      await settle();
    }
    const drawn = await page.evaluate(() => {
      const text = document.querySelector(".run-graph-counts")?.textContent ?? "";
      return { rendered: document.querySelectorAll(".react-flow__node").length, drawn: Number(/drawn as (\d+)/.exec(text)?.[1] ?? /(\d+) nodes/.exec(text)?.[1] ?? 0) };
    });
    const { click } = await clickNode(page);
    await page.close();
    return { pan: median(pans), zoom: median(zooms), click, ...drawn };
  }

  return { visit, expandAll, measureResponsive };
}

const median = (xs) => {
  const kept = xs.filter((x) => typeof x === "number");
  return kept.length === 0 ? null : [...kept].sort((a, b) => a - b)[Math.floor(kept.length / 2)];
};
