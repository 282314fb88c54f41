import { closeDb } from "@/lib/db/client";
import { API_KEY_SCOPES, createApiKey, listApiKeys, parseApiKeyScope, revokeApiKey } from "@/lib/db/api-keys";
import { formatCountOf, parseDurationMs } from "@/lib/format/values";
import { parseArgs, UsageError } from "./args";
import { cliActor } from "./actor";

export const KEYS_USAGE = `usage: loopscope keys create <name> --scope ingest|ingest+control [--expires 90d]
                                      create an API key (printed once); ingest writes events,
                                      ingest+control also reads and acknowledges decisions
       loopscope keys list            list keys (prefix, name, scope, created, last used, state)
       loopscope keys revoke <id|prefix>`;

/** `loopscope keys`: the API keys agents use for POST /api/ingest and the control API. */
export async function runKeysCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === "create") {
      const args = parseArgs(rest, ["scope", "expires"], ["scope", "expires"]);
      const [name] = args.positionals;
      if (!name) throw new UsageError("keys create needs a name, e.g. `loopscope keys create ci-agent --scope ingest`");
      const rawScope = args.flags.get("scope") ?? "ingest";
      const scope = parseApiKeyScope(rawScope);
      if (!scope) throw new UsageError(`--scope is one of ${API_KEY_SCOPES.join(", ")}, not "${String(rawScope)}"`);
      const expires = args.flags.get("expires");
      const expiresAt = typeof expires === "string" ? Date.now() + parseExpiry(expires) : null;
      const k = await createApiKey(name, { scope, expiresAt, createdBy: cliActor() });
      console.log(k.key);
      console.error(`created key ${k.prefix}… (${k.name}, scope ${k.scope}${expiresAt ? `, expires ${new Date(expiresAt).toISOString()}` : ""}); it is shown only now: store it, e.g. as LOOPSCOPE_API_KEY`);
      return 0;
    }
    if (sub === "list") {
      const keys = await listApiKeys();
      if (keys.length === 0) console.log("no API keys yet: loopscope keys create <name> --scope ingest");
      const now = Date.now();
      for (const k of keys) {
        const state = k.revokedAt
          ? `revoked ${new Date(k.revokedAt).toISOString()}`
          : k.expiresAt === null ? "active" : k.expiresAt <= now ? "expired" : `active until ${new Date(k.expiresAt).toISOString()}`;
        const used = k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : "never";
        console.log(`${k.prefix}…  ${k.name.padEnd(20)} ${k.scope.padEnd(15)} created ${new Date(k.createdAt).toISOString()}  last used ${used}  ${state}  id ${k.id}`);
      }
      return 0;
    }
    if (sub === "revoke") {
      const [arg] = rest;
      if (!arg) throw new UsageError("keys revoke needs the key's id or prefix");
      // `keys list` shows a prefix with an ellipsis: copied as it is, it names the same key.
      const n = await revokeApiKey(arg.replace(/…$/, ""), cliActor());
      if (n === 0) {
        console.error(`no active key with id or prefix ${arg}`);
        return 1;
      }
      console.log(`revoked ${formatCountOf(n, "key")}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown keys command "${sub}"` : "keys needs a command");
  } finally {
    await closeDb();
  }
}

/** Key lifetimes read like share links' ("90d", "12h"), without the 90-day cap. */
function parseExpiry(value: string): number {
  const ms = parseDurationMs(value);
  if (!ms) throw new UsageError(`--expires takes a duration such as 90d or 12h, not "${value}"`);
  return ms;
}
