/** A `##` section of a markdown report, by the 1-based line of its heading. */
export interface ReportSection {
  title: string;
  line: number;
}

/**
 * The report's `##` headings, for its table of contents. Fenced code is
 * skipped (a `## x` inside a code block is text). The renderer gives each
 * `h2` the id `getReportAnchorId(prefix, line)`, so the two always agree.
 */
export function listReportSections(markdown: string): ReportSection[] {
  const out: ReportSection[] = [];
  let fence: string | null = null;
  const lines = markdown.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}##[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (h) out.push({ title: h[1].replace(/[*_`]/g, "").trim(), line: i + 1 });
  }
  return out;
}

/** The id of the heading on a line of a rendered report. */
export function getReportAnchorId(prefix: string, line: number): string {
  return `${prefix}-l${line}`;
}
