"use client";
import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import { unstoppableLoopHint } from "@/lib/domain/notify/rules";
import { NOTIFY_HEADLINES } from "@/lib/domain/notify/types";

interface WaitingRun {
  runId: string;
  title: string | null;
  haltReason: string;
  signal: string | null;
  key: string;
}

/** A loop found in a live session Loopscope cannot stop (`GET /api/needs-you`, `loops`). */
interface LiveLoop extends WaitingRun {
  format: string;
}

const POLL_MS = 4000;
const OPT_IN = "loopscope.notify";

/**
 * While the dashboard is open: the number of runs that wait for a person in
 * the tab's title ("(2) Runs · Loopscope"), and, once the person opts in, a
 * desktop notification (the Notification API) when a run starts waiting, or
 * when a live agent session that Loopscope cannot stop is found looping.
 */
/** A desktop notification about a run; a click opens the run in this tab. */
function notifyDesktop(r: WaitingRun, title: string, body: string): void {
  const n = new Notification(title, { body, tag: `loopscope:${r.runId}:${r.key}` });
  n.onclick = () => {
    window.focus();
    window.location.assign(`/runs/${encodeURIComponent(r.runId)}`);
  };
}

export function NeedsYouWatcher() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">("default");
  const [optedIn, setOptedIn] = useState(false);
  const seen = useRef<Set<string> | null>(null);
  const optedInRef = useRef(false);
  const [waiting, setWaiting] = useState(0);

  useEffect(() => {
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
    const on = localStorage.getItem(OPT_IN) === "on";
    setOptedIn(on);
    optedInRef.current = on;
  }, []);

  useEffect(() => {
    let stopped = false;
    const base = () => document.title.replace(/^\(\d+\) /, "");
    const poll = async () => {
      try {
        const res = await fetch("/api/needs-you", { cache: "no-store" });
        if (stopped) return;
        if (!res.ok) {
          // Signed out, or the server refuses: no count is better than a stale one.
          setWaiting(0);
          return;
        }
        const body = (await res.json()) as { total: number; runs: WaitingRun[]; loops?: LiveLoop[] };
        if (stopped) return;
        document.title = body.total > 0 ? `(${body.total}) ${base()}` : base();
        setWaiting(body.total);
        const loops = body.loops ?? [];
        const keyOf = (r: WaitingRun) => `${r.runId}\u0000${r.key}`;
        const keys = new Set([...body.runs, ...loops].map(keyOf));
        // The first answer is what already waited when the page opened: only later arrivals notify.
        if (seen.current && optedInRef.current && typeof Notification !== "undefined" && Notification.permission === "granted") {
          const reason = (r: WaitingRun) => `${r.haltReason.replace(/_/g, " ")}${r.signal ? ` (${r.signal})` : ""}.`;
          for (const r of body.runs) {
            if (!seen.current.has(keyOf(r))) notifyDesktop(r, `${NOTIFY_HEADLINES.halted}: ${r.title ?? r.runId}`, `${reason(r)} Open it to decide.`);
          }
          for (const l of loops) {
            if (!seen.current.has(keyOf(l))) notifyDesktop(l, `${NOTIFY_HEADLINES.loop_found}: ${l.title ?? l.runId}`, `${reason(l)} ${unstoppableLoopHint(l.format)}`);
          }
        }
        seen.current = keys;
      } catch {
        // The next poll tries again.
      }
    };
    void poll();
    const timer = window.setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);

  // From every page, the way back to the runs that wait (the home page lists them first).
  const needsYou = waiting > 0 ? (
    <Link href="/" className="badge warn needs-you-link" data-testid="needs-you-link" title="Runs that wait for a person to decide: open the list">
      {waiting} {waiting === 1 ? "needs" : "need"} you
    </Link>
  ) : null;
  if (permission === "unsupported" || permission === "denied") return needsYou;
  if (optedIn && permission === "granted") {
    return (
      <>
        {needsYou}
        <button type="button" className="link-button notify-toggle" title="Desktop notifications are on for this browser" onClick={() => {
          localStorage.setItem(OPT_IN, "off");
          optedInRef.current = false;
          setOptedIn(false);
        }}>🔔 on</button>
      </>
    );
  }
  return (
    <>
      {needsYou}
      <button type="button" className="link-button notify-toggle" onClick={async () => {
        const p = await Notification.requestPermission();
        setPermission(p);
        if (p === "granted") {
          localStorage.setItem(OPT_IN, "on");
          optedInRef.current = true;
          setOptedIn(true);
        }
      }} aria-label="Notify me when a run waits" title="Desktop notifications when a run starts waiting for a person">Notify me</button>
    </>
  );
}
