/** The API key of a machine request: `Authorization: Bearer <key>` or `X-Api-Key: <key>`. */
export function apiKeyFrom(request: Request): string | null {
  const auth = request.headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (m) return m[1];
  }
  return request.headers.get("x-api-key");
}

/** A JSON error body `{ error }` with a status. */
export function jsonError(status: number, message: string): Response {
  return Response.json({ error: message }, { status });
}
