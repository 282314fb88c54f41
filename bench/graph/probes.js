// What bench/graph/run.js reads inside the page: long tasks and the last
// click (an init script), the page load's timeline (Navigation and Resource
// Timing, the app's `loopscope:*` User Timing marks, Server-Timing of the
// graph API), and input-to-frame times measured from the input event's own
// timestamp, so that the bench's round trips to the browser are not counted.

/** Init script: records long tasks and the timestamp of the last click. Runs in the page. */
export function installProbes() {
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // no long task timing in this browser
  }
  window.addEventListener("click", (e) => { window.__benchLastClick = e.timeStamp; }, { capture: true });
}

/** The page load's timeline up to `readyMs` (ms since navigation start). */
export function collectTrace(page, readyMs) {
  return page.evaluate((ready) => {
    const nav = performance.getEntriesByType("navigation")[0];
    const mark = (name) => performance.getEntriesByName(`loopscope:${name}`)[0]?.startTime ?? null;
    const resources = performance.getEntriesByType("resource");
    const graph = resources.find((r) => new URL(r.name).pathname.endsWith("/graph")) ?? null;
    const layoutApi = resources.find((r) => new URL(r.name).pathname.endsWith("/graph/layout")) ?? null;
    const server = (entry) => Object.fromEntries((entry?.serverTiming ?? []).map((s) => [s.name, s.duration]));
    const tasks = (window.__benchLongTasks ?? []).filter((t) => t.start < ready);
    return {
      ttfb: nav?.responseStart ?? null,
      html: nav?.responseEnd ?? null,
      dcl: nav?.domContentLoadedEventEnd ?? null,
      hydrated: mark("graph-hydrated"),
      graphStart: graph?.startTime ?? null,
      graphEnd: graph?.responseEnd ?? null,
      graphBytes: graph?.encodedBodySize ?? null,
      graphServer: server(graph),
      layoutApiStart: layoutApi?.startTime ?? null,
      layoutApiEnd: layoutApi?.responseEnd ?? null,
      layoutApiServer: server(layoutApi),
      data: mark("graph-data"),
      worker: mark("worker-created"),
      layoutStart: mark("layout-start"),
      layoutDone: mark("layout-done") ?? mark("layout-fetched") ?? mark("layout-served") ?? mark("layout-cached") ?? mark("layout-fast"),
      layoutFrom: mark("layout-done") !== null ? "ELK in the page's worker"
        : mark("layout-fetched") !== null ? "asked of the server"
          : mark("layout-served") !== null ? "served with the graph"
            : mark("layout-cached") !== null ? "browser cache"
              : mark("layout-fast") !== null ? "quick layered layout" : "?",
      flow: mark("flow-init"),
      ready,
      longTasks: tasks.reduce((a, t) => a + t.duration, 0),
      longTaskCount: tasks.length,
    };
  }, readyMs);
}

const med = (xs) => {
  const kept = xs.filter((x) => typeof x === "number");
  return kept.length === 0 ? null : [...kept].sort((a, b) => a - b)[Math.floor(kept.length / 2)];
};

/** One line: the median of each step over the visits. */
export function formatTrace(traces) {
  const m = (key) => med(traces.map((t) => t[key]));
  const r = (x) => (x === null ? "–" : String(Math.round(x)));
  const server = (key) => {
    const names = [...new Set(traces.flatMap((t) => Object.keys(t[key] ?? {})))];
    return names.length === 0 ? "" : ` [server ${names.map((n) => `${n} ${r(med(traces.map((t) => t[key]?.[n])))}`).join(", ")}]`;
  };
  const from = [...new Set(traces.map((t) => t.layoutFrom))].join("/");
  const bytes = m("graphBytes");
  const parts = [
    `ttfb ${r(m("ttfb"))}`,
    `html ${r(m("html"))}`,
    `dcl ${r(m("dcl"))}`,
    `hydrated ${r(m("hydrated"))}`,
    `graph fetch ${r(m("graphStart"))}→${r(m("graphEnd"))}${bytes ? ` (${Math.round(bytes / 1024)} kB)` : ""}${server("graphServer")}`,
  ];
  if (m("layoutApiStart") !== null) parts.push(`layout fetch ${r(m("layoutApiStart"))}→${r(m("layoutApiEnd"))}${server("layoutApiServer")}`);
  if (m("worker") !== null) parts.push(`worker created ${r(m("worker"))}`);
  parts.push(`layout ${m("layoutStart") === null ? "" : `${r(m("layoutStart"))}→`}${r(m("layoutDone"))} (${from})`);
  parts.push(`React Flow init ${r(m("flow"))}`, `ready ${r(m("ready"))}`, `long tasks ${r(m("longTasks"))} ms (${r(m("longTaskCount"))})`);
  return parts.join(", ");
}

/**
 * Runs `act` (an input) and answers the ms from that input's click event to
 * the first frame in which `selector` matches.
 */
export async function measureAnswer(page, selector, act) {
  await page.evaluate((sel) => {
    window.__benchAnswer = new Promise((resolveAnswer) => {
      window.addEventListener("click", (event) => {
        const t0 = event.timeStamp;
        const check = () => (document.querySelector(sel) ? resolveAnswer(performance.now() - t0) : requestAnimationFrame(check));
        check();
      }, { capture: true, once: true });
    });
  }, selector);
  await act();
  return page.evaluate(() => window.__benchAnswer);
}

/**
 * Runs `act` (a drag or a wheel turn) and answers the ms from its first
 * `eventType` event to the frame in which React Flow's viewport has moved.
 */
export async function measureViewportChange(page, eventType, act) {
  await page.evaluate((type) => {
    const viewport = document.querySelector(".run-graph-canvas .react-flow__viewport");
    const before = viewport?.style.transform;
    window.__benchViewport = new Promise((resolveChange) => {
      window.addEventListener(type, (event) => {
        const t0 = event.timeStamp;
        const end = performance.now() + 10_000;
        const check = () => {
          if (viewport?.style.transform !== before) resolveChange(performance.now() - t0);
          else if (performance.now() > end) resolveChange(null);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }, { capture: true, once: true });
    });
  }, eventType);
  await act();
  return page.evaluate(() => window.__benchViewport);
}
