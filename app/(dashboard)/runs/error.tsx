"use client";

/**
 * The last resort when a runs page fails to render (the pages catch database
 * errors themselves and say what failed); production builds hide the message,
 * so the digest is shown to find it in the server log.
 */
export default function RunsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="page">
      <div className="notice bad" role="alert">
        <p><strong>This page could not be shown.</strong> {error.message}</p>
        {error.digest ? <p className="run-sub">Server log reference: {error.digest}</p> : null}
        <button type="button" className="button" onClick={reset}>Try again</button>
      </div>
    </main>
  );
}
