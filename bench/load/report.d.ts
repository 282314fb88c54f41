/** Types of bench/load/report.js (a plain Node script, also imported by its test). */
export const LOAD_LINE: RegExp;
export function formatLoadLine(
  kind: "sqlite" | "postgres",
  figures: { rate: number; p95: number; p99: number; lost: number; duplicated: number; s5xx: number },
): string;
export function formatOverloadLine(
  kind: "sqlite" | "postgres",
  factor: number,
  figures: {
    clients: number; seconds: number; rate: number; shed: number; shedWithoutRetryAfter: number; timeouts: number; dropped: number;
    acceptedP99: number; lost: number; duplicated: number; s5xxNotShed: number;
  },
): string;
export function formatServerCpu(figures: { cpuMs: number; wallMs: number; requests: number; events: number }): string;
