import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { ReactNode } from "react";
import { toSafeHref } from "@/lib/format/safe-url";
import { getReportAnchorId } from "@/lib/format/report-sections";

/**
 * Markdown written by an agent, rendered as formatted text and nothing more:
 * raw HTML is shown as text (react-markdown without rehype-raw), links keep
 * only http(s), mailto and in-page targets (`toSafeHref`), and images are
 * never loaded: each becomes a link to its address. Headings move down two
 * levels to sit under the page's own; `##` headings get ids for the contents.
 */
export function SafeMarkdown({ markdown, idPrefix }: { markdown: string; idPrefix: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={(url) => toSafeHref(url) ?? ""} components={buildComponents(idPrefix)}>
        {markdown}
      </Markdown>
    </div>
  );
}

function buildComponents(prefix: string): Components {
  return {
    h1: ({ children }) => <h3 className="md-h1">{children}</h3>,
    h2: ({ children, node }) => (
      <h4 className="md-h2" id={node?.position ? getReportAnchorId(prefix, node.position.start.line) : undefined}>{children}</h4>
    ),
    h3: ({ children }) => <h5 className="md-h3">{children}</h5>,
    h4: ({ children }) => <h6 className="md-h4">{children}</h6>,
    h5: ({ children }) => <h6 className="md-h4">{children}</h6>,
    h6: ({ children }) => <h6 className="md-h4">{children}</h6>,
    a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
    img: ({ src, alt }) => {
      const href = typeof src === "string" && src ? src : null;
      const label = `image: ${alt || (href ?? "no address")}`;
      return href ? (
        <SafeLink href={href} className="md-image-link" title="Remote images are not loaded; open it in a new tab">{label}</SafeLink>
      ) : (
        <span className="md-image-link dead" title="Image address removed (not http or https)">{label}</span>
      );
    },
    table: ({ children }) => (
      <div className="md-table-scroll">
        <table>{children}</table>
      </div>
    ),
  };
}

function SafeLink({ href, children, className, title }: { href: string | undefined; children: ReactNode; className?: string; title?: string }) {
  if (!href) return <span className={`md-dead-link ${className ?? ""}`} title="Link removed: only http, https and mailto links are kept">{children}</span>;
  if (href.startsWith("#")) return <a href={href} className={className}>{children}</a>;
  return (
    <a href={href} className={className} title={title ?? href} target="_blank" rel="noopener noreferrer nofollow ugc" referrerPolicy="no-referrer">
      {children}
    </a>
  );
}
