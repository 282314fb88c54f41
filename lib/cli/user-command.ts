import { closeDb } from "@/lib/db/client";
import { createSignInLink, createUser, listUsers, removeUser, setUserRole, UserError, USER_NAME_PATTERN } from "@/lib/db/users";
import { parseRole, ROLES } from "@/lib/domain/access/roles";
import { checkPasswordStrength } from "@/lib/auth/secrets";
import { formatInstant } from "@/lib/format/values";
import { parseArgs, UsageError } from "./args";
import { readPassword } from "./read-secret";
import { linkBaseForPeople } from "./actor";

export const USER_USAGE = `usage: loopscope user add <name> --role viewer|operator|admin [--no-password]
                                      password from a prompt, or the first line of stdin when it is not a terminal
       loopscope user list
       loopscope user set-role <name> <role>
       loopscope user remove <name>       (ends that user's sessions at once)
       loopscope user link <name>         print a one-time sign-in URL, valid for 10 minutes`;

/** `loopscope user`: the people who sign in to the dashboard, and their roles. */
export async function runUserCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case "add":
        return await addUser(rest);
      case "list":
        return await printUsers();
      case "set-role": {
        const [name, roleArg, extra] = parseArgs(rest, []).positionals;
        const role = parseRole(roleArg);
        if (!name || !roleArg) throw new UsageError(`user set-role needs a name and one of ${ROLES.join(", ")}`);
        if (!role) throw new UsageError(`"${roleArg}" is no role: one of ${ROLES.join(", ")}`);
        if (extra !== undefined) throw new UsageError(`user set-role takes a name and a role, not "${extra}"`);
        if (!(await setUserRole(name, role))) return notFound(name);
        console.log(`${name.toLowerCase()} is now ${role}`);
        return 0;
      }
      case "remove": {
        const [name] = parseArgs(rest, []).positionals;
        if (!name) throw new UsageError("user remove needs a name");
        if (!(await removeUser(name))) return notFound(name);
        console.log(`removed ${name.toLowerCase()}; their sessions have ended`);
        return 0;
      }
      case "link": {
        const [name] = parseArgs(rest, []).positionals;
        if (!name) throw new UsageError("user link needs a name");
        const link = await createSignInLink(name);
        if (!link) return notFound(name);
        console.log(`${linkBaseForPeople()}/sign-in/link/${link.token}`);
        console.error(`one-time sign-in link for ${link.user}, valid until ${formatInstant(link.expiresAt)} UTC (10 minutes)`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown user command "${sub}"` : "user needs a command");
    }
  } catch (error) {
    if (error instanceof UserError) {
      console.error(`loopscope: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDb();
  }
}

function notFound(name: string): number {
  console.error(`loopscope: no user named ${name.toLowerCase()} (see \`loopscope user list\`)`);
  return 1;
}

async function addUser(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["role", "no-password"], ["role"]);
  const [name, extra] = args.positionals;
  const roleArg = args.flags.get("role");
  const role = parseRole(roleArg);
  if (!name) throw new UsageError("user add needs a name, e.g. `loopscope user add ada --role admin`");
  if (extra !== undefined) throw new UsageError(`user add takes one name, not also "${extra}"`);
  if (typeof roleArg !== "string") throw new UsageError(`user add needs --role ${ROLES.join("|")}`);
  if (!role) throw new UsageError(`--role "${roleArg}" is no role: one of ${ROLES.join(", ")}`);
  if (!USER_NAME_PATTERN.test(name.trim().toLowerCase())) throw new UserError(`"${name}" is not a valid user name: 1–64 of a-z, 0-9, . _ @ -`);
  let password: string | null = null;
  if (!args.flags.has("no-password")) {
    password = await readPassword(`password for ${name.toLowerCase()}`);
    const weak = checkPasswordStrength(password);
    if (weak) throw new UserError(`${weak} (or use --no-password and \`loopscope user link ${name}\`)`);
  }
  const user = await createUser({ name, role, password });
  console.log(`added ${user.name} (${user.role})${password ? "" : "; sign in with `loopscope user link " + user.name + "`"}`);
  return 0;
}

async function printUsers(): Promise<number> {
  const users = await listUsers();
  if (users.length === 0) console.log("no users yet: loopscope user add <name> --role admin");
  for (const u of users) {
    const how = [u.hasPassword ? "password" : null, u.sso ? "sso" : null].filter(Boolean).join("+") || "link only";
    console.log(`${u.name.padEnd(24)} ${u.role.padEnd(8)} ${how.padEnd(12)} last sign-in ${u.lastSignInAt ? formatInstant(u.lastSignInAt) : "never"}  sessions ${u.sessions}`);
  }
  return 0;
}
