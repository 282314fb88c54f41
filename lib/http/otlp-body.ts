/**
 * Reading an OTLP/HTTP request body: which encoding its Content-Type names,
 * whether it is gzip'd, and its bytes, within the ingest body limit both as
 * sent and once decompressed (OTLP: "the server MUST limit the size of the
 * request body when parsing it, including after decompression").
 */
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { BodyTooLargeError, readBodyChunks } from "@/lib/db/ingest/api-ingest";

const gunzipAsync = promisify(gunzip);

export type OtlpEncoding = "protobuf" | "json";

/** The encoding a Content-Type names (parameters such as `charset` ignored), or null for any other. */
export function readOtlpEncoding(contentType: string | null): OtlpEncoding | null {
  const media = (contentType ?? "").split(";", 1)[0].trim().toLowerCase();
  if (media === "application/x-protobuf") return "protobuf";
  if (media === "application/json") return "json";
  return null;
}

/** `gzip` when the body is gzip'd, `none` when not compressed, null for a coding this server does not read. */
export function readContentCoding(contentEncoding: string | null): "gzip" | "none" | null {
  const coding = (contentEncoding ?? "").trim().toLowerCase();
  if (coding === "" || coding === "identity") return "none";
  if (coding === "gzip" || coding === "x-gzip") return "gzip";
  return null;
}

/** A gzip body that does not decompress. */
export class BadCompressionError extends Error {}

/**
 * The body's bytes, decompressed when `coding` is gzip. Stops with
 * `BodyTooLargeError` as soon as either the sent or the decompressed size
 * passes `limit`, so a gzip bomb costs at most `limit` bytes of memory.
 */
export async function readOtlpBody(body: ReadableStream<Uint8Array> | null, coding: "gzip" | "none", limit: number): Promise<Uint8Array> {
  const sent = await readLimited(body, limit);
  if (coding === "none") return sent;
  try {
    return await gunzipAsync(sent, { maxOutputLength: limit });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new BodyTooLargeError(limit);
    throw new BadCompressionError(`the body is not valid gzip: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const total = await readBodyChunks(body, limit, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, total);
}
