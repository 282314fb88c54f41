import type { AnchorHTMLAttributes } from "react";

/** `next/link` for the exported file: a plain link (the file has no router). */
export default function Link({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; prefetch?: boolean }) {
  const { prefetch: _prefetch, ...anchor } = rest as typeof rest & { prefetch?: boolean };
  return <a href={href} {...anchor} />;
}
