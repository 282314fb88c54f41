/**
 * Reading the GenAI semantic-convention attributes of a span: its operation,
 * token usage, the text of its messages, a tool call's name, arguments and
 * result. Three generations of names are read: any-agent's (`gen_ai.output`,
 * `gen_ai.tool.args`), the current semconv's (`gen_ai.input.messages` with
 * `parts`, `gen_ai.tool.call.arguments`/`result`) and OpenLLMetry's indexed
 * ones (`gen_ai.prompt.0.content`). Unknown shapes read as absent.
 */
import { toCanonicalJson } from "../protocol/hashes";
import { isJsonObject, parseJsonValue } from "./json-line";
import type { GenAiSpan, SpanAttributeValue } from "./otel-genai-span";

/** What a span is to the mapper. */
export type GenAiOperation = "agent" | "model" | "tool";

const OPERATIONS: ReadonlyMap<string, GenAiOperation> = new Map([
  ["invoke_agent", "agent"],
  ["call_llm", "model"], // any-agent's own name for a model call
  ["chat", "model"],
  ["text_completion", "model"],
  ["generate_content", "model"],
  ["execute_tool", "tool"],
]);

/**
 * The operation a span records: `gen_ai.operation.name`, else the first word
 * of its name (semconv names spans `{operation} {target}`); null for spans
 * that are not an agent step (HTTP, embeddings, a framework's own spans).
 */
export function readOperation(span: GenAiSpan): { kind: GenAiOperation; name: string } | null {
  const declared = span.attributes["gen_ai.operation.name"];
  const name = typeof declared === "string" && declared !== "" ? declared : span.name.split(" ", 1)[0];
  const kind = OPERATIONS.get(name);
  return kind === undefined ? null : { kind, name };
}

/** A string attribute, or undefined. */
export function readText(span: GenAiSpan, key: string): string | undefined {
  const value = span.attributes[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A count attribute (a whole number ≥ 0, possibly written as a decimal string), or undefined. */
export function readCount(span: GenAiSpan, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = span.attributes[key];
    const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) return n;
  }
  return undefined;
}

function readAmount(span: GenAiSpan, key: string): number | undefined {
  const value = span.attributes[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Token usage of a model call: input and output as the span counts them, and their sum. */
export function readUsage(span: GenAiSpan): { tokens: number; inputTokens?: number; outputTokens?: number } | undefined {
  const inputTokens = readCount(span, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens");
  const outputTokens = readCount(span, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens");
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { tokens: (inputTokens ?? 0) + (outputTokens ?? 0), inputTokens, outputTokens };
}

/** any-agent's cost attributes (`gen_ai.usage.input_cost` + `output_cost`, in USD), summed. */
export function readCostUsd(span: GenAiSpan): number | undefined {
  const input = readAmount(span, "gen_ai.usage.input_cost");
  const output = readAmount(span, "gen_ai.usage.output_cost");
  if (input === undefined && output === undefined) return undefined;
  // Rounded to a picodollar: the sum of two binary fractions carries noise (5.2499999999999995e-05).
  return Math.round(((input ?? 0) + (output ?? 0)) * 1e12) / 1e12;
}

/** A structured attribute that may also arrive as JSON text (any-agent serialises its messages). */
function readStructured(value: SpanAttributeValue | undefined): unknown {
  if (typeof value !== "string") return value;
  const parsed = parseJsonValue(value);
  return parsed.ok ? parsed.value : undefined;
}

/** The text of one chat message: `content` as a string, or its text `parts`/blocks joined. */
function readMessageText(message: unknown): string {
  if (!isJsonObject(message)) return "";
  if (typeof message.content === "string") return message.content;
  const blocks = Array.isArray(message.parts) ? message.parts : Array.isArray(message.content) ? message.content : [];
  const texts: string[] = [];
  for (const block of blocks) {
    if (!isJsonObject(block)) continue;
    const text = block.type === undefined || block.type === "text" ? (block.content ?? block.text) : undefined;
    if (typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}

/** The first user message of a model call or agent invocation, as text. */
export function readUserPrompt(span: GenAiSpan): string | undefined {
  const messages = readStructured(span.attributes["gen_ai.input.messages"]);
  if (Array.isArray(messages)) {
    for (const message of messages) {
      if (!isJsonObject(message) || message.role !== "user") continue;
      const text = readMessageText(message).trim();
      if (text !== "") return text;
    }
  }
  for (let i = 0; span.attributes[`gen_ai.prompt.${i}.role`] !== undefined; i++) {
    if (span.attributes[`gen_ai.prompt.${i}.role`] !== "user") continue;
    const text = readText(span, `gen_ai.prompt.${i}.content`)?.trim();
    if (text) return text;
  }
  return undefined;
}

/**
 * What a model call answered, as text: any-agent's `gen_ai.output`, else the
 * text parts of semconv `gen_ai.output.messages` (their JSON when they hold
 * no text, e.g. only tool calls), else OpenLLMetry's `gen_ai.completion.0.content`.
 */
export function readModelOutput(span: GenAiSpan): string | undefined {
  const output = span.attributes["gen_ai.output"];
  if (output !== undefined && output !== null) return asText(output);
  const messages = span.attributes["gen_ai.output.messages"];
  if (messages !== undefined && messages !== null) {
    const parsed = readStructured(messages);
    const text = Array.isArray(parsed) ? parsed.map(readMessageText).filter((t) => t !== "").join("\n") : "";
    return text !== "" ? text : asText(messages);
  }
  return readText(span, "gen_ai.completion.0.content");
}

/** The tool a call ran: `gen_ai.tool.name`, else the target in the span name (`execute_tool {name}`). */
export function readToolName(span: GenAiSpan): string | undefined {
  const named = readText(span, "gen_ai.tool.name");
  if (named !== undefined) return named;
  const target = span.name.startsWith("execute_tool ") ? span.name.slice("execute_tool ".length).trim() : "";
  return target !== "" ? target : undefined;
}

/** A tool call's arguments: parsed when written as JSON text, as given otherwise. */
export function readToolArgs(span: GenAiSpan): unknown {
  const value = span.attributes["gen_ai.tool.args"] ?? span.attributes["gen_ai.tool.call.arguments"];
  if (typeof value !== "string") return value ?? undefined;
  const parsed = parseJsonValue(value);
  return parsed.ok ? parsed.value : value;
}

/** A tool call's result as text, or undefined when the span records none. */
export function readToolOutput(span: GenAiSpan): string | undefined {
  const value = span.attributes["gen_ai.output"] ?? span.attributes["gen_ai.tool.call.result"];
  return value === undefined || value === null ? undefined : asText(value);
}

function asText(value: SpanAttributeValue): string {
  return typeof value === "string" ? value : toCanonicalJson(value);
}
