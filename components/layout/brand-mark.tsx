/** The brand mark (also on share and sign-in pages, and in exported files). */
export function BrandMark() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="7" fill="none" stroke="#60a5fa" strokeWidth="2.5" />
      <path d="M10 3 L13 6 L10 6 Z" fill="#60a5fa" />
    </svg>
  );
}
