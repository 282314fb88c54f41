/** Parsed command-line arguments: positionals, and flags with or without values. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Thrown for a wrong command line; printed with the usage, exit status 2. */
export class UsageError extends Error {}

/**
 * Parses `--flag`, `--flag value`, `--flag=value` and positionals. `valued`
 * names the flags that take a value; any other flag is boolean, and a flag not
 * in `known` is a usage error.
 */
export function parseArgs(argv: readonly string[], known: readonly string[], valued: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    if (valued.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else {
      flags.set(name, true);
    }
  }
  return { positionals, flags };
}
