import type { Message, TextPart } from './content-part.js';
import type { JSONSchema } from './json-schema.js';
import type { Protocol, ProtocolMetadata } from './protocol.js';

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string;
  inputSchema: JSONSchema;
  strict?: boolean;
  protocolMetadata?: ProtocolMetadata;
}

/**
 * A tool that only its own vendor runs (web search, code execution, ...). Kept as the wire object so
 * the same protocol can pass it on; other protocols warn and drop it.
 */
export interface ProviderTool {
  type: 'provider';
  protocol: Protocol;
  name: string;
  raw: Record<string, unknown>;
}

export type Tool = FunctionTool | ProviderTool;

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; toolName: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json'; schema?: JSONSchema; name?: string; description?: string; strict?: boolean };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ReasoningConfig {
  /** Whether the model should reason at all; undefined leaves it to the model. */
  enabled?: boolean;
  effort?: ReasoningEffort;
  /** A token budget for reasoning (Anthropic budget_tokens, Gemini thinkingBudget). */
  budgetTokens?: number;
  /** Return reasoning text (summaries) to the client when the upstream can. */
  includeThoughts?: boolean;
}

/**
 * One generation request, independent of any wire protocol. Built by a codec's `decodeRequest`
 * from what a client sent; turned back into wire form by a codec's `encodeRequest`.
 */
export interface GenerateRequest {
  model: string;
  /** System instructions that lead the conversation. Later system messages stay in `messages`. */
  system: TextPart[];
  messages: Message[];
  tools: Tool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  stream: boolean;
  /** Number of choices (OpenAI `n`, Gemini `candidateCount`). */
  n?: number;
  /** End-user id (OpenAI `user`/`safety_identifier`, Anthropic `metadata.user_id`). */
  user?: string;
  metadata?: Record<string, string>;
  /** Fields that only make sense to the same protocol, keyed by it. */
  extensions: Partial<Record<Protocol, Record<string, unknown>>>;
}
