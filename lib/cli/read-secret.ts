import { createInterface } from "node:readline";

/**
 * Reads a password: from a terminal, asked twice with the typing hidden;
 * from a pipe (scripts), the first line of stdin. Never from the command line,
 * where it would land in shell history and `ps`.
 */
export async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine();
  const first = await askHidden(`${prompt}: `);
  const again = await askHidden("again: ");
  if (first !== again) throw new Error("the two passwords differ");
  return first;
}

async function readFirstLine(): Promise<string> {
  let data = "";
  for await (const chunk of process.stdin) {
    data += String(chunk);
    const nl = data.indexOf("\n");
    if (nl >= 0) return data.slice(0, nl).replace(/\r$/, "");
    if (data.length > 4096) break;
  }
  return data.replace(/\r?\n$/, "");
}

function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    output._writeToOutput = (s: string) => {
      // Show the question once, then nothing of what is typed.
      if (!asked) {
        process.stderr.write(s);
        asked = true;
      }
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
  });
}
