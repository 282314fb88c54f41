import Link from "next/link";

/** The top bar: product name and the main sections. */
export function AppHeader() {
  return (
    <header className="app-header">
      <Link href="/runs" className="brand" aria-label="Loopscope home">
        <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
          <circle cx="10" cy="10" r="7" fill="none" stroke="#60a5fa" strokeWidth="2.5" />
          <path d="M10 3 L13 6 L10 6 Z" fill="#60a5fa" />
        </svg>
        Loopscope
      </Link>
      <nav aria-label="Main">
        <Link href="/runs">Runs</Link>
        <Link href="/trends">Trends</Link>
        <Link href="/what-if">What if</Link>
        <Link href="/settings">Settings</Link>
      </nav>
    </header>
  );
}
