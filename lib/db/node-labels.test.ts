import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSql } from "./client";
import { getDecisionPanelData, listWaitingRuns } from "./decisions";
import { ingestPaths } from "./ingest/ingest-files";
import { listNodeLabels } from "./node-labels";
import { getRunDetail } from "./run-detail";
import { listRunEvents } from "./run-events";
import { getTrends } from "./trends";
import { runWhatIf } from "./what-if";
import { testDatabaseKinds } from "./testing/test-databases";
import { useAppDatabase } from "./testing/app-database";

/** The graph-workflow fixture: nodes named by UUID, labelled Planner, Implementer, Reviewer. */
const RUN = "0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e";
const IMPLEMENTER = "e7b907d9-370f-4473-9ac8-c59d892804b6";
const REVIEWER = "e7670ad1-07c9-4660-8768-fcbfaa6163f6";
const kinds = await testDatabaseKinds();

describe.each(kinds)("node labels of a stored graph-workflow run (%s)", (kind) => {
  useAppDatabase(kind);

  it("reach the run page, the decision panel, Needs you, the timeline, the trends and what-if", async () => {
    const sql = await getSql();
    await ingestPaths(sql, [resolve(__dirname, "../../fixtures/vuhlp"), resolve(__dirname, "../../fixtures/protocol")]);
    const labels = await listNodeLabels(sql, RUN);
    expect(Object.values(labels).sort()).toEqual(["Implementer", "Planner", "Reviewer"]);
    // Protocol nodes labelled as their ids (Planner for planner) need no label.
    expect(await listNodeLabels(sql, "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63")).toEqual({});

    expect((await getRunDetail(RUN))?.nodeLabels).toEqual(labels);
    const panel = await getDecisionPanelData(RUN);
    expect(panel?.halt?.node).toBe(IMPLEMENTER);
    expect(panel?.nodeLabels[IMPLEMENTER]).toBe("Implementer");
    expect((await listWaitingRuns(sql)).runs.find((r) => r.runId === RUN)?.nodeLabels).toEqual(labels);

    const page = await listRunEvents(RUN, { filter: { types: ["edge.traversed"], nodes: [] }, limit: 50 });
    expect(page.events[1].summary).toBe("Implementer → Reviewer · Please review the relative time helper.");
    expect(page.events.some((e) => e.summary.includes(IMPLEMENTER))).toBe(false);

    const trends = await getTrends({ from: null, to: null, status: null, haltReason: null, profile: null, format: "workflow-events" });
    expect(trends.loopingEdges.map((e) => e.label)).toContain("Implementer → Reviewer");
    expect(trends.loopingEdges.find((e) => e.label === "Implementer → Reviewer")).toMatchObject({ from: IMPLEMENTER, to: REVIEWER });

    // What-if names the halt's node too; runs whose halt names no labelled node carry no labels.
    const whatIf = await runWhatIf(sql, { limit: 100 }, {});
    expect(whatIf.rows.find((r) => r.runId === RUN)?.halt?.node).toBe(IMPLEMENTER);
    expect(whatIf.nodeLabels.get(RUN)).toEqual(labels);
    expect(whatIf.nodeLabels.has("7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63")).toBe(false);
  });
});
