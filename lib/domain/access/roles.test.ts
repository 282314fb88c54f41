import { describe, expect, it } from "vitest";
import { can, parseRole, roleNeededFor } from "./roles";
import { revealInvisible, hasInvisible } from "./visible-text";
import { Throttle } from "./throttle";
import { describeClient, networkOf, clientAddressOf } from "./client-info";
import { isAllowedHost, isAllowedOrigin, readHostPolicy } from "./host-policy";
import { redactMarkdownCode, redactPayload, redactRawLine, REDACTED } from "./redact";

describe("roles", () => {
  it("each role includes the one before it", () => {
    expect(can("viewer", "read")).toBe(true);
    expect(can("viewer", "decide")).toBe(false);
    expect(can("viewer", "share")).toBe(false);
    expect(can("operator", "decide")).toBe(true);
    expect(can("operator", "what_if")).toBe(true);
    expect(can("operator", "share")).toBe(true);
    expect(can("operator", "manage_keys")).toBe(false);
    expect(can("operator", "manage_settings")).toBe(false);
    expect(can("admin", "manage_users")).toBe(true);
    expect(can("admin", "manage_all_shares")).toBe(true);
    expect(roleNeededFor("decide")).toBe("operator");
  });
  it("parses roles strictly", () => {
    expect(parseRole(" Admin ")).toBe("admin");
    expect(parseRole("root")).toBeNull();
    expect(parseRole("__proto__")).toBeNull();
    expect(parseRole(undefined)).toBeNull();
  });
});

describe("revealInvisible", () => {
  it("shows bidi overrides, isolates and zero-width characters as code points", () => {
    expect(revealInvisible("invoice\u202Etxt.exe")).toBe("invoice⟨U+202E⟩txt.exe");
    expect(revealInvisible("a\u200Bb\u2066c\u2069\uFEFF")).toBe("a⟨U+200B⟩b⟨U+2066⟩c⟨U+2069⟩⟨U+FEFF⟩");
    expect(revealInvisible("plain — text ü 字")).toBe("plain — text ü 字");
    expect(hasInvisible("x\u200Dy")).toBe(true);
    expect(hasInvisible("xy")).toBe(false);
  });
});

describe("Throttle", () => {
  const t = () => new Throttle({ free: 3, windowMs: 60_000, baseDelayMs: 1000, maxDelayMs: 8000 });
  it("lets the first failures through, then doubles the wait up to the cap", () => {
    const th = t();
    expect([th.fail("a", 0), th.fail("a", 0), th.fail("a", 0)]).toEqual([0, 0, 0]);
    expect(th.fail("a", 0)).toBe(1000);
    expect(th.retryAfterMs("a", 500)).toBe(500);
    expect(th.fail("a", 1000)).toBe(2000);
    expect(th.fail("a", 3000)).toBe(4000);
    expect(th.fail("a", 7000)).toBe(8000);
    expect(th.fail("a", 15000)).toBe(8000);
    expect(th.retryAfterMs("b", 0)).toBe(0);
  });
  it("forgets a key after success or after its window", () => {
    const th = t();
    for (let i = 0; i < 5; i++) th.fail("a", 0);
    th.succeed("a");
    expect(th.retryAfterMs("a", 0)).toBe(0);
    for (let i = 0; i < 4; i++) th.fail("b", 0);
    expect(th.retryAfterMs("b", 120_000)).toBe(0);
    expect(th.fail("b", 120_000)).toBe(0);
  });
  it("keeps memory bounded under a flood of keys", () => {
    const th = new Throttle({ free: 0, windowMs: 1000, baseDelayMs: 1, maxDelayMs: 1, maxKeys: 10 });
    for (let i = 0; i < 100; i++) th.fail(`k${i}`, 0);
    expect(th.retryAfterMs("k99", 0)).toBe(1);
    // Later, the expired entries go first; a blocked key is kept while others can go.
    const held = new Throttle({ free: 0, windowMs: 1000, baseDelayMs: 60_000, maxDelayMs: 60_000, maxKeys: 10 });
    held.fail("target", 0);
    for (let i = 0; i < 5; i++) held.fail(`old${i}`, 0);
    for (let i = 0; i < 12; i++) held.fail(`junk${i}`, 70_000);
    expect(held.retryAfterMs("target", 70_000)).toBe(0);
    held.fail("target", 70_000);
    for (let i = 0; i < 8; i++) held.fail(`more${i}`, 71_000);
    expect(held.retryAfterMs("target", 71_000)).toBeGreaterThan(0);
  });
});

describe("client info", () => {
  it("names a browser family and a network, never the address", () => {
    expect(describeClient("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36")).toBe("Chrome on Linux");
    expect(describeClient("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/140.0")).toBe("Firefox on macOS");
    expect(describeClient("curl/8.5.0")).toBe("curl");
    expect(describeClient(null)).toBe("unknown client");
    expect(networkOf("203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:10.1.2.3")).toBe("10.1.2.0/24");
    expect(networkOf("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::/48");
    expect(clientAddressOf("198.51.100.7, 10.0.0.1")).toBe("10.0.0.1");
    expect(clientAddressOf("203.0.113.9")).toBe("203.0.113.9");
  });
});

describe("host policy", () => {
  const none = readHostPolicy(undefined);
  const pub = readHostPolicy("https://ls.example.com, http://ls.internal:8080");
  it("answers only loopback names when no public URL is configured", () => {
    expect(isAllowedHost("localhost:3000", none)).toBe(true);
    expect(isAllowedHost("127.0.0.1:3100", none)).toBe(true);
    expect(isAllowedHost("[::1]:3000", none)).toBe(true);
    expect(isAllowedHost("evil.example:3000", none)).toBe(false);
    expect(isAllowedHost("127.0.0.1.evil.example", none)).toBe(false);
    expect(isAllowedHost(null, none)).toBe(false);
  });
  it("answers the configured public hosts", () => {
    expect(isAllowedHost("ls.example.com", pub)).toBe(true);
    expect(isAllowedHost("ls.internal:8080", pub)).toBe(true);
    expect(isAllowedHost("ls.internal:9090", pub)).toBe(false);
    expect(isAllowedHost("localhost:3000", pub)).toBe(false);
    expect(isAllowedHost("other.example.com", pub)).toBe(false);
  });
  it("refuses a missing, null, foreign or rebinding origin", () => {
    expect(isAllowedOrigin("http://localhost:3000", "localhost:3000", none)).toBe(true);
    expect(isAllowedOrigin("http://127.0.0.1:3001", "127.0.0.1:3000", none)).toBe(false);
    expect(isAllowedOrigin("null", "localhost:3000", none)).toBe(false);
    expect(isAllowedOrigin(null, "localhost:3000", none)).toBe(false);
    expect(isAllowedOrigin("https://evil.example", "localhost:3000", none)).toBe(false);
    expect(isAllowedOrigin("http://evil.example:3000", "evil.example:3000", none)).toBe(false);
    expect(isAllowedOrigin("https://ls.example.com", "ls.example.com", pub)).toBe(true);
    expect(isAllowedOrigin("https://evil.example", "ls.example.com", pub)).toBe(false);
    expect(() => readHostPolicy("not a url")).toThrow(/LOOPSCOPE_URL/);
  });
});

describe("redaction", () => {
  it("withholds payloads and keeps hashes, counts and names", () => {
    const out = redactPayload({
      type: "tool.called", tool: "bash", args: { cmd: "cat .env" }, ok: false, outputHash: "ab12",
      output: { final: "secret" }, stderr: "AWS_KEY=…", failing: ["test_a"], exitCode: 1,
      nested: [{ diff: "--- a", diffHash: "cd34" }],
    });
    expect(out).toEqual({
      type: "tool.called", tool: "bash", args: REDACTED, ok: false, outputHash: "ab12", output: REDACTED,
      stderr: REDACTED, failing: ["test_a"], exitCode: 1, nested: REDACTED,
    });
  });
  it("keeps only known fields: unknown, free-text ones are withheld too", () => {
    const out = redactPayload({
      type: "edge.traversed", from: "a", to: "b", reason: "token=abc", query: "api key of prod", directive: "use key X",
      stopReason: "stopped: secret", tool_output: "x", new_string: "y", stderrTail: "z", evidence: { queries: ["q"] }, payload: "p",
      graph: { nodes: [{ id: "a", label: "A" }] }, budgets: { maxSteps: 5 },
    });
    expect(out).toEqual({
      type: "edge.traversed", from: "a", to: "b", reason: REDACTED, query: REDACTED, directive: REDACTED, stopReason: REDACTED,
      tool_output: REDACTED, new_string: REDACTED, stderrTail: REDACTED, evidence: REDACTED, payload: REDACTED,
      graph: { nodes: [{ id: "a", label: "A" }] }, budgets: { maxSteps: 5 },
    });
  });
  it("keeps a report's prose and withholds its code", () => {
    const md = "## Plan\nWe fix it.\n\n```\nAWS_KEY=1\n```\n\n    indented secret\nDone.";
    expect(redactMarkdownCode(md)).toBe(`## Plan\nWe fix it.\n\n\`\`\`\n${REDACTED}\n\`\`\`\n\n    ${REDACTED}\nDone.`);
  });
  it("redacts raw lines whole when they are not JSON", () => {
    expect(redactRawLine('{"type":"x","stdout":"hi"}')).toBe('{"type":"x","stdout":"[redacted]"}');
    expect(redactRawLine("## Verification\nsecret")).toBe("[redacted] (22 characters)");
  });
});
