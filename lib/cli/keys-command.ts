import { closeDb } from "@/lib/db/client";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/db/api-keys";
import { UsageError } from "./args";

export const KEYS_USAGE = `usage: loopscope keys create <name>   create an ingest API key (printed once)
       loopscope keys list            list keys (prefix, name, created, last used)
       loopscope keys revoke <id|prefix>`;

/** `loopscope keys`: manage the API keys agents use for POST /api/ingest and the control API. */
export async function runKeysCommand(argv: string[]): Promise<number> {
  const [sub, arg] = argv;
  try {
    if (sub === "create") {
      if (!arg) throw new UsageError("keys create needs a name, e.g. `loopscope keys create ci-agent`");
      const k = await createApiKey(arg);
      console.log(k.key);
      console.error(`created key ${k.prefix}… (${k.name}); it is shown only now: store it, e.g. as LOOPSCOPE_API_KEY`);
      return 0;
    }
    if (sub === "list") {
      const keys = await listApiKeys();
      if (keys.length === 0) console.log("no API keys yet: loopscope keys create <name>");
      for (const k of keys) {
        const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : "active";
        const used = k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : "never";
        console.log(`${k.prefix}…  ${k.name.padEnd(20)} created ${new Date(k.createdAt).toISOString()}  last used ${used}  ${state}`);
      }
      return 0;
    }
    if (sub === "revoke") {
      if (!arg) throw new UsageError("keys revoke needs the key's id or prefix");
      const n = await revokeApiKey(arg);
      if (n === 0) {
        console.error(`no active key with id or prefix ${arg}`);
        return 1;
      }
      console.log(`revoked ${n} key${n === 1 ? "" : "s"}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown keys command "${sub}"` : "keys needs a command");
  } finally {
    await closeDb();
  }
}
