import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { cliActor } from "./actor";

describe("cliActor", () => {
  it("names the login from USER, then LOGNAME, then the operating system's account: never 'unknown' where there is one", () => {
    expect(cliActor({ USER: "ann", LOGNAME: "bob" })).toBe("cli:ann");
    expect(cliActor({ LOGNAME: "bob" })).toBe("cli:bob");
    expect(cliActor({})).toBe(`cli:${userInfo().username}`);
  });
});
