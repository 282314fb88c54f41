import { closeDb } from "@/lib/db/client";
import { createShareLink, findShareLinkId, listShareLinks, parseShareExpiry, revokeShareLink, ShareError } from "@/lib/db/share-links";
import { formatInstant } from "@/lib/format/values";
import { parseArgs, UsageError } from "./args";
import { cliActor, linkBaseForPeople } from "./actor";

export const SHARE_USAGE = `usage: loopscope share create <runId> [--expires 7d] [--redact] [--by <name>]
                                      print a read-only link to one run (at most 90d)
       loopscope share list [--all]       active links (--all: revoked and expired too)
       loopscope share revoke <token-or-url-or-id>`;

/** `loopscope share`: read-only, expiring links to one run, for reviewers. */
export async function runShareCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === "create") {
      const args = parseArgs(rest, ["expires", "redact", "by"], ["expires", "by"]);
      const [runId] = args.positionals;
      if (!runId) throw new UsageError("share create needs a run id");
      const expiresInMs = parseShareExpiry(args.flags.get("expires") as string | undefined);
      const by = typeof args.flags.get("by") === "string" ? String(args.flags.get("by")) : cliActor();
      const made = await createShareLink({ runId, createdBy: by, expiresInMs, redact: args.flags.has("redact") });
      if (!made) {
        console.error(`loopscope: no run with id ${runId}`);
        return 1;
      }
      console.log(`${linkBaseForPeople()}/share/${made.token}`);
      console.error(`read-only link to ${runId}${made.link.redact ? " (redacted)" : ""}, expires ${formatInstant(made.link.expiresAt)} UTC; shown only now`);
      return 0;
    }
    if (sub === "list") {
      const args = parseArgs(rest, ["all"]);
      const links = await listShareLinks({ all: args.flags.has("all") });
      if (links.length === 0) console.log("no active share links");
      const now = Date.now();
      for (const l of links) {
        const state = l.revokedAt ? "revoked" : l.expiresAt <= now ? "expired" : `expires ${formatInstant(l.expiresAt)}`;
        console.log(`${l.id}  run ${l.runId}  by ${l.createdBy ?? "?"}  ${state}  ${l.redact ? "redacted" : "full"}  opened ${l.openCount}× (last ${l.lastOpenedAt ? formatInstant(l.lastOpenedAt) : "never"})`);
      }
      return 0;
    }
    if (sub === "revoke") {
      const [what] = parseArgs(rest, []).positionals;
      if (!what) throw new UsageError("share revoke needs the link's token, URL or id");
      const id = await findShareLinkId(what);
      if (!id || !(await revokeShareLink(id, cliActor()))) {
        console.error("loopscope: no active share link matches");
        return 1;
      }
      console.log(`revoked share link ${id}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown share command "${sub}"` : "share needs a command");
  } catch (error) {
    if (error instanceof ShareError) {
      console.error(`loopscope: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDb();
  }
}
