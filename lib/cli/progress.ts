/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
export class ProgressBar {
  private last = 0;
  private drawn = false;
  private readonly started = Date.now();
  constructor(private readonly enabled = Boolean(process.stderr.isTTY)) {}

  update(done: number, total: number, label: string): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 100 && done < total) return;
    this.last = now;
    const width = 28;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * width);
    const secs = (now - this.started) / 1000;
    const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${label} ${secs.toFixed(1)}s`;
    process.stderr.write(`\r${line.slice(0, (process.stderr.columns || 100) - 1)}\x1b[K`);
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) process.stderr.write("\r\x1b[K");
    this.drawn = false;
  }
}

/** Bytes in a human unit. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1 << 30) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  return `${(n / (1 << 30)).toFixed(2)} GiB`;
}
