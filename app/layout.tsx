import type { Metadata } from "next";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Loopscope", template: "%s · Loopscope" },
  description: "See, stop and resume AI coding agents that go round in circles.",
};

/**
 * The document shell. It reads the request's headers so that every page
 * renders per request: the Content-Security-Policy nonce (proxy.ts) is set
 * on Next.js's scripts only at request time.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await headers();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
