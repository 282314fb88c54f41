/** Shown while a run's page loads. */
export default function Loading() {
  return (
    <main className="page run-page" aria-busy="true">
      <div className="panel"><div className="skeleton skeleton-header" /></div>
      <div className="panel"><div className="skeleton skeleton-table" /></div>
    </main>
  );
}
