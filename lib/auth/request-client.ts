import { createHmac } from "node:crypto";
import { headers } from "next/headers";
import { getHostPolicy, getPublicUrl } from "./config";
import { isAllowedHost } from "@/lib/domain/access/host-policy";
import { clientAddressOf, describeClient, networkOf } from "@/lib/domain/access/client-info";

/**
 * Coarse facts of the client of this request: its address for throttling
 * (never stored), its browser family, and a keyed hash of its network for
 * access logs (the same network gives the same value within this process's
 * lifetime of the key; the address itself is never written anywhere).
 */
export async function readRequestClient(): Promise<{ address: string; browser: string; networkHash: string }> {
  const h = await headers();
  const address = clientAddressOf(h.get("x-forwarded-for")) ?? "unknown";
  return { address, browser: describeClient(h.get("user-agent")), networkHash: hashNetwork(networkOf(address)) };
}

const globalForKey = globalThis as unknown as { loopscopeLogKey?: string };

function hashNetwork(network: string): string {
  globalForKey.loopscopeLogKey ??= process.env.LOOPSCOPE_LOG_KEY ?? `${process.pid}:${Date.now()}:${Math.random()}`;
  return `net-${createHmac("sha256", globalForKey.loopscopeLogKey).update(network).digest("hex").slice(0, 10)}`;
}

/** This server's base URL as people's browsers see it: LOOPSCOPE_URL, else the request's own scheme and Host. */
export async function requestBaseUrl(): Promise<string> {
  const pub = getPublicUrl();
  if (pub) return pub;
  const h = await headers();
  return `${h.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http"}://${h.get("host")}`;
}

/** True when this request's Host names this server (LOOPSCOPE_URL, or loopback when unset). */
export async function isRequestHostAllowed(): Promise<boolean> {
  return isAllowedHost((await headers()).get("host"), getHostPolicy());
}
