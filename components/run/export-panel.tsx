/**
 * The run page's "Export" section (operators and admins, like sharing): the
 * run as one HTML file that opens from disk without a server (for a pull
 * request or a ticket), redacted by default since a file cannot be revoked;
 * or as JSON for another Loopscope. A plain form: the download needs no script.
 */
export function ExportPanel({ runId }: { runId: string }) {
  const action = `/api/runs/${encodeURIComponent(runId)}/export`;
  return (
    <section className="panel" aria-labelledby="export-title" id="export">
      <h2 id="export-title">Export</h2>
      <div className="panel-body">
        <p className="muted">
          One self-contained HTML file: header, graph with its halts, node inspector, findings, timeline and report, with the data inside.
          It opens from disk in any browser and makes no request. Unlike a share link it cannot be revoked: with <em>redact</em>, raw
          payloads, stderr, diffs and file contents are left out.
        </p>
        <form method="get" action={action} className="share-form" aria-label="Export this run">
          <label className="checkbox">
            <input type="checkbox" name="redact" value="1" defaultChecked /> Redact payloads, stderr, diffs and file contents
          </label>
          <button type="submit" className="primary">Export</button>
          <a className="button" href={`${action}?format=json`} download>JSON for another Loopscope</a>
        </form>
      </div>
    </section>
  );
}
