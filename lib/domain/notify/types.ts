/** What a notification can be about. */
export const NOTIFY_EVENTS = ["halted", "still_waiting", "halted_again", "aborted_stuck", "loop_found"] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** How a rule reads in Settings → Notifications: in words, as the history shows a terminal status ("aborted stuck"). */
export const NOTIFY_EVENT_LABELS: Record<NotifyEvent, string> = {
  halted: "a run halts and waits for a person",
  still_waiting: "a run still waits after N minutes",
  halted_again: "a resumed run halts again on the same loop",
  aborted_stuck: "a run ends aborted stuck",
  loop_found: "a live agent session that Loopscope cannot stop loops",
};

/** The first words of a notification's headline, per event (webhooks, Slack, the desktop). */
export const NOTIFY_HEADLINES: Record<NotifyEvent, string> = {
  halted: "Run waits for you",
  still_waiting: "Run still waits",
  halted_again: "Run halted again",
  aborted_stuck: "Run stopped as aborted, stuck",
  loop_found: "Agent loops, and Loopscope cannot stop it",
};

export type ChannelKind = "webhook" | "slack";

export interface NotifyRuleSpec {
  id: string;
  channelId: string;
  event: NotifyEvent;
  afterMinutes: number | null;
  repeatMinutes: number | null;
  /** null: any. */
  haltReasons: string[] | null;
  profiles: string[] | null;
  formats: string[] | null;
}

/** The facts of a notification, fixed when it is written to the outbox. */
export interface NotifyFacts {
  event: NotifyEvent;
  runId: string;
  title: string | null;
  profile: string | null;
  format: string;
  haltReason: string | null;
  signal: string | null;
  /** `Loop k/N` of the run's worst cycle, when it has one. */
  loop: string | null;
  /** One sentence: what fired, where, with which numbers. */
  explanation: string;
  suggestedActions: string[];
  /** When the run started waiting (ms since epoch), when known. */
  waitingSince: number | null;
  /** The halt the notification is about (`<source>:<key>`), or null for an ending. */
  haltKey: string | null;
  terminalStatus: string | null;
}

/** What is sent: the facts, plus the link and the wait computed at send time. */
export interface NotifyPayload extends NotifyFacts {
  /** The run page. */
  url: string;
  waitedMinutes: number | null;
  /** The delivery's idempotency key (also the Idempotency-Key header). */
  idempotencyKey: string;
  sentAt: string;
  /** True for `loopscope notify test` samples. */
  test?: boolean;
}
