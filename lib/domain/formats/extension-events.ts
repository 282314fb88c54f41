/**
 * Event types Loopscope adds to the protocol for what foreign runtimes report
 * and the protocol has no word for. The protocol accepts unknown types (they
 * are stored and shown, never rejected), so these are valid protocol events;
 * they are documented here because the run summary reads them.
 */
import type { EventEnvelope } from "../protocol/types";

/** The type name of `RunStatusEvent`. */
export const RUN_STATUS_TYPE = "run.status";

/** The fields of a `run.status` event. */
export interface RunStatusFields {
  /**
   * The runtime's own run status: `running`, `paused`, `completed`, and from
   * the graph-workflow runtime also `queued`, `stopped`, `failed`. It is not a
   * terminal status: `completed`/`stopped`/`failed` end the run as the runtime
   * says, and no terminal status of the protocol is invented from them.
   */
  status: string;
  /** Graph-workflow run mode (`AUTO` | `INTERACTIVE`), when the runtime states it. */
  mode?: string;
  /** Why the run paused: `approval` for an SDD approval interrupt. */
  reason?: string;
  /** What the pause is about (the SDD interrupt's value). */
  detail?: unknown;
  /** Who resumed the run (SDD `interrupt.resumed`). */
  resumedBy?: string;
  /** The run id an SDD resume continues (a resume starts a new runId in the same file). */
  resumes?: string;
}

/**
 * `run.status`: the runtime changed the run's status (paused for a person,
 * resumed, finished). Produced by the mappers of SDD runtime events
 * (`interrupt.raised`, `interrupt.resumed`, `run.finished`) and graph-workflow
 * events (`run.patch` with a `status`).
 */
export interface RunStatusEvent extends EventEnvelope, RunStatusFields {
  type: "run.status";
}
