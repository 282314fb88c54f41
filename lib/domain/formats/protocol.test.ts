import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseProtocolLine, validateProtocolEvent } from "./protocol";
import { parseIsoTimestamp } from "./timestamp";

const FIXTURES = new URL("../../../fixtures/", import.meta.url);

const base = { id: "e1", runId: "r1", ts: "2026-08-04T14:20:00.123Z" };

function accepts(value: Record<string, unknown>) {
  const result = validateProtocolEvent(value);
  expect(result.ok ? "ok" : result.message).toBe("ok");
  return result.ok ? result.event : undefined;
}
function rejects(value: unknown, message: string) {
  const result = validateProtocolEvent(value);
  expect(result.ok ? "ok" : result.message).toBe(message);
}

describe("validateProtocolEvent: envelope", () => {
  it("requires id, runId, ts and type", () => {
    accepts({ ...base, type: "node.started", node: "coder" });
    rejects({ runId: "r", ts: base.ts, type: "x" }, 'missing required field "id"');
    rejects({ id: "e", ts: base.ts, type: "x" }, 'missing required field "runId"');
    rejects({ id: "e", runId: "r", type: "x" }, 'missing required field "ts"');
    rejects({ ...base }, 'missing required field "type"');
  });

  it("requires envelope strings", () => {
    rejects({ ...base, id: 7, type: "x" }, 'field "id" must be a string (got number)');
    rejects({ ...base, runId: ["r"], type: "x" }, 'field "runId" must be a string (got array)');
    rejects({ ...base, type: 1 }, 'field "type" must be a string (got number)');
    rejects({ ...base, type: "x", node: 3 }, 'field "node" must be a string (got number)');
  });

  it("limits id, runId and node to 200 characters", () => {
    const at = "a".repeat(200);
    const over = "a".repeat(201);
    accepts({ ...base, id: at, runId: at, node: at, type: "x" });
    rejects({ ...base, id: over, type: "x" }, 'field "id" must be at most 200 characters (got 201)');
    rejects({ ...base, runId: over, type: "x" }, 'field "runId" must be at most 200 characters (got 201)');
    rejects({ ...base, node: over, type: "x" }, 'field "node" must be at most 200 characters (got 201)');
  });

  it("requires ts to be an ISO-8601 timestamp", () => {
    for (const ts of ["2026-08-04T14:20:00Z", "2026-08-04T16:20:00+02:00", "2026-08-04T14:20:00.123456-0130", "2026-08-04", "2026-08-04T14:20"]) {
      accepts({ ...base, ts, type: "x" });
    }
    rejects({ ...base, ts: "yesterday", type: "x" }, 'field "ts" must be an ISO-8601 timestamp (got "yesterday")');
    rejects({ ...base, ts: "2026-02-30T00:00:00Z", type: "x" }, 'field "ts" must be an ISO-8601 timestamp (got "2026-02-30T00:00:00Z")');
    rejects({ ...base, ts: "March 7 2026", type: "x" }, 'field "ts" must be an ISO-8601 timestamp (got "March 7 2026")');
    rejects({ ...base, ts: 1785853200000, type: "x" }, 'field "ts" must be an ISO-8601 timestamp string (got number)');
  });

  it("reads each event's ts on its own, also when the one before had the same or another", () => {
    const instants = ["2026-08-04T14:20:00.123Z", "2026-08-04T14:20:00.123Z", "yesterday", "yesterday", "2026-08-04T16:20:00+02:00", "2026-08-04T14:20:00.123Z"].map((ts) => {
      const result = validateProtocolEvent({ ...base, ts, type: "x" });
      return result.ok ? result.tsMs : result.message;
    });
    const refused = 'field "ts" must be an ISO-8601 timestamp (got "yesterday")';
    expect(instants).toEqual([1785853200123, 1785853200123, refused, refused, 1785853200000, 1785853200123]);
  });

  it("refuses stored text holding a NUL or a lone surrogate, naming the first such field", () => {
    const nul = (name: string) => `field "${name}" must not contain a NUL character (\\u0000)`;
    const lone = (name: string) => `field "${name}" must be valid Unicode text (it holds a lone surrogate)`;
    rejects({ ...base, runId: "r\u0000", type: "x" }, nul("runId"));
    rejects({ ...base, type: "x", title: "a\uD800b" }, lone("title"));
    rejects({ ...base, type: "x", title: "ab\uDC00" }, lone("title"));
    rejects({ ...base, type: "x", title: "\uDC00\uD800" }, lone("title"));
    rejects({ ...base, type: "x", title: "\uD83D", note: "\u0000" }, lone("title"));
    rejects({ ...base, type: "x", title: "\uD83D\u0000" }, nul("title"));
    accepts({ ...base, type: "x", title: "loop \uD83D\uDD01 again", other: { nested: "\u0000\uD800" } });
  });

  it("finds a lone surrogate exactly where the pattern of one matches", () => {
    const lonePattern = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const unit = fc.constantFrom("a", "é", "\uD83D", "\uDE00", "\uDBFF", "\uDC00", "\u4E2D");
    const text = fc.array(unit, { maxLength: 8 }).map((units) => units.join(""));
    fc.assert(
      fc.property(text, (title) => {
        const result = validateProtocolEvent({ ...base, type: "x", title });
        expect(result.ok).toBe(!lonePattern.test(title));
      }),
    );
  });

  it("accepts v absent, null or 1 and rejects any other version", () => {
    expect(accepts({ ...base, type: "x" })?.v).toBe(1);
    expect(accepts({ ...base, v: null, type: "x" })?.v).toBe(1);
    accepts({ ...base, v: 1, type: "x" });
    rejects({ ...base, v: 2, type: "x" }, 'field "v" must be 1 (got 2)');
    rejects({ ...base, v: "1", type: "x" }, 'field "v" must be 1 (got string)');
  });

  it("accepts an unknown type with only its envelope checked, and keeps unknown fields", () => {
    const event = accepts({ ...base, type: "telemetry.usage", tokens: "many", extra: { a: [1] } });
    expect(event).toMatchObject({ tokens: "many", extra: { a: [1] } });
  });
});

describe("validateProtocolEvent: fields of each type", () => {
  it("requires the fields without ? for their type", () => {
    accepts({ ...base, type: "verify.result", command: "npm test", passed: true });
    rejects({ ...base, type: "verify.result", passed: true }, 'missing required field "command" for verify.result');
    rejects({ ...base, type: "node.completed" }, 'missing required field "node" for node.completed');
    rejects({ ...base, type: "edge.traversed", from: "a" }, 'missing required field "to" for edge.traversed');
    rejects({ ...base, type: "run.completed", terminalStatus: null }, 'missing required field "terminalStatus" for run.completed');
  });

  it("checks the JSON type of required fields", () => {
    rejects({ ...base, type: "verify.result", command: "npm test", passed: "yes" }, 'field "passed" must be a boolean (got string)');
    rejects({ ...base, type: "tool.called", tool: 1 }, 'field "tool" must be a string (got number)');
  });

  it("type-checks optional fields when present, null counting as absent", () => {
    const event = accepts({ ...base, type: "verify.result", command: "c", passed: false, exitCode: null, stderr: "boom" });
    expect(event).not.toHaveProperty("exitCode");
    rejects({ ...base, type: "verify.result", command: "c", passed: false, exitCode: "1" }, 'field "exitCode" must be a number (got string)');
    rejects({ ...base, type: "run.started", title: 5 }, 'field "title" must be a string (got number)');
    rejects({ ...base, type: "node.completed", node: "n", output: { final: 1 } }, 'field "output.final" must be a string (got number)');
  });

  it("requires tokens, durationMs and costUsd to be numbers", () => {
    accepts({ ...base, type: "node.completed", node: "n", tokens: 10, durationMs: 5.5, costUsd: 0.01 });
    rejects({ ...base, type: "node.completed", node: "n", tokens: "10" }, 'field "tokens" must be a number (got string)');
    rejects({ ...base, type: "node.completed", node: "n", durationMs: true }, 'field "durationMs" must be a number (got boolean)');
    rejects({ ...base, type: "node.completed", node: "n", costUsd: {} }, 'field "costUsd" must be a number (got object)');
    rejects({ ...base, type: "node.completed", node: "n", tokens: Number.NaN }, 'field "tokens" must be a finite number (got NaN)');
    rejects({ ...base, type: "node.completed", node: "n", costUsd: Number.POSITIVE_INFINITY }, 'field "costUsd" must be a finite number (got Infinity)');
    rejects({ ...base, type: "node.completed", node: "n", tokens: 1.5 }, 'field "tokens" must be a whole number from 0 to 1,000,000,000 (got 1.5)');
    rejects({ ...base, type: "node.completed", node: "n", tokens: -1 }, 'field "tokens" must be a whole number from 0 to 1,000,000,000 (got -1)');
  });

  it("requires arrays of strings where the table says string[]", () => {
    accepts({ ...base, type: "verify.result", command: "c", passed: false, failing: ["t1", "t2"] });
    rejects({ ...base, type: "verify.result", command: "c", passed: false, failing: "t1" }, 'field "failing" must be an array of strings (got string)');
    rejects({ ...base, type: "artifact.diff", files: ["a", 2] }, 'field "files[1]" must be a string (got number)');
    rejects(
      { ...base, type: "task.attempt", taskId: "t", status: "done", completedWork: [] },
      'missing required field "blockers" for task.attempt',
    );
  });

  it("does not check enum values", () => {
    accepts({ ...base, type: "task.attempt", taskId: "t", status: "completed", blockers: [], completedWork: ["x"] });
    accepts({ ...base, type: "loop.halted", haltReason: "bored" });
    accepts({ ...base, type: "run.completed", terminalStatus: "done_eventually" });
  });

  it("checks the shape of a declared graph", () => {
    const graph = { nodes: [{ id: "a", label: "A", role: null }], edges: [{ from: "a", to: "a" }] };
    accepts({ ...base, type: "run.started", graph });
    rejects({ ...base, type: "run.started", graph: { nodes: [{ label: "A" }] } }, 'field "graph.nodes[0].id" must be a string (got undefined)');
    rejects({ ...base, type: "run.started", graph: { edges: [{ from: "a", to: 1 }] } }, 'field "graph.edges[0].to" must be a string (got number)');
    rejects({ ...base, type: "graph.declared" }, 'missing required field "graph" for graph.declared');
  });

  it("rejects what is not an object, and does not modify its input", () => {
    rejects([1], "event must be a JSON object (got array)");
    rejects(null, "event must be a JSON object (got null)");
    const input = { ...base, type: "verify.result", command: "c", passed: true, exitCode: null };
    const event = accepts(input);
    expect(input).toHaveProperty("exitCode", null);
    expect(input).not.toHaveProperty("v");
    expect(event).not.toBe(input);
  });
});

describe("parseProtocolLine", () => {
  it("reports JSON syntax errors with the parser's message", () => {
    const result = parseProtocolLine('{"id": }');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^not JSON: /);
  });

  it("accepts every line of the protocol fixtures", () => {
    for (const name of ["clean-success", "planner-researcher-loop", "verifier-repeated-failure"]) {
      const text = readFileSync(new URL(`protocol/${name}.jsonl`, FIXTURES), "utf8");
      for (const line of text.split("\n").filter((l) => l !== "")) {
        const result = parseProtocolLine(line);
        expect(result.ok ? "ok" : result.message).toBe("ok");
      }
    }
  });
});

describe("parseIsoTimestamp", () => {
  it("honours offsets and reads a time without offset as UTC", () => {
    expect(parseIsoTimestamp("2026-08-04T16:20:00+02:00")).toBe(Date.parse("2026-08-04T14:20:00Z"));
    expect(parseIsoTimestamp("2026-08-04T14:20:00")).toBe(Date.parse("2026-08-04T14:20:00Z"));
    expect(parseIsoTimestamp("2024-02-29")).toBe(Date.parse("2024-02-29T00:00:00Z"));
    expect(parseIsoTimestamp("2026-02-29")).toBeNaN();
    expect(parseIsoTimestamp("2026-08-04T24:00:00Z")).toBeNaN();
  });
});
