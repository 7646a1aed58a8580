import type { GatewayError } from '../core/gateway-error.js';
import type { GenerateRequest } from '../core/generate-request.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { Protocol } from '../core/protocol.js';
import type { StreamPart } from '../core/stream-part.js';
import type { Warning } from '../core/warning.js';
import type { SseEvent } from '../sse/sse-event.js';

/**
 * The contract every protocol codec fulfils (docs/architecture.md, "Codecs"). Four codecs give all sixteen
 * client × upstream pairs. Codecs are pure: ids and time come in through the context, nothing here
 * touches the network, the disk, the clock or the environment.
 */
export interface ProtocolCodec {
  readonly protocol: Protocol;

  // Serving clients.
  /** Wire request → GenerateRequest. Throws a GatewayError (400, naming `param`) on invalid input. */
  decodeRequest(body: unknown, options: DecodeRequestOptions): DecodedRequest;
  /**
   * What of the client's request this codec's responses read, for `ResponseContext.request`. An
   * open stream holds it for as long as it runs, so a codec keeps only what its encoders read:
   * `requestWithoutPrompt` unless its responses echo the instructions or the tools.
   */
  responseRequestOf(request: GenerateRequest): ResponseRequest;
  /** Core response → the wire JSON a non-stream client receives. */
  encodeResponse(response: GenerateResponse, context: ResponseContext): unknown;
  /** A stateful (but pure) encoder of stream parts into wire events. */
  createStreamEncoder(context: ResponseContext): StreamEncoder;
  /** GatewayError → status and the protocol's error envelope. */
  encodeError(error: GatewayError): EncodedError;
  /**
   * The protocol's in-stream error event on its own, for a stream whose earlier events the client
   * got from elsewhere (a passthrough upstream that failed): no stream encoder's opening events.
   */
  encodeStreamError(error: GatewayError): string;

  // Calling upstream.
  /** GenerateRequest → wire request for an upstream of this protocol. */
  encodeRequest(request: GenerateRequest, options: EncodeRequestOptions): EncodedRequest;
  /** Upstream wire JSON → core response. */
  decodeResponse(body: unknown): GenerateResponse;
  /** A stateful (but pure) decoder of upstream SSE events into stream parts. */
  createStreamDecoder(): StreamDecoder;
  /**
   * The protocol's completion rule, on one raw upstream event: whether it ends a stream (the
   * terminal event, or an error). A passthrough stream, which is not decoded on the way, is
   * complete only when one of its last events ends it; the stream decoder follows the same rule.
   */
  endsStream(event: SseEvent): boolean;
  /** Upstream error status and body text → GatewayError (keeping the body for passthrough). */
  decodeError(status: number, body: string): GatewayError;

  /**
   * Same protocol on both ends: the client's own body, with only the model changed, and the
   * upstream path. May ask for extra data the client did not (OpenAI stream usage) and then says
   * which upstream events to hold back from the client.
   */
  preparePassthrough(body: Record<string, unknown>, options: PassthroughOptions): PreparedPassthrough;
}

export interface DecodeRequestOptions {
  /** The model named in the URL path (Gemini puts it there). */
  pathModel?: string;
  /** Streaming chosen by the URL (Gemini `:streamGenerateContent`). */
  stream?: boolean;
}

export interface DecodedRequest {
  request: GenerateRequest;
  /** Fields accepted but not acted on. */
  warnings: Warning[];
  /**
   * Set when the request refers to state only the vendor keeps (a stored response or item): an
   * upstream of the same protocol can serve it, any other is a 400 naming `param`.
   */
  sameProtocolOnly?: { param: string; message: string };
}

/** What an encoder needs to know about the response it is writing. */
export interface ResponseContext {
  /** The gateway's id of this request (the `x-request-id` header); wire ids derive from it. */
  requestId: string;
  /** Unix time in seconds. */
  created: number;
  /** The model name reported to the client: the name the client asked for. */
  model: string;
  /**
   * The decoded client request, as far as the client codec's responses read it
   * (`ProtocolCodec.responseRequestOf`): never the conversation, and the instructions and tools
   * only for a codec whose responses echo them (a Responses object does). An agent's conversation
   * is often hundreds of kB and its tools tens of kB, held for as long as the generation runs.
   */
  request: ResponseRequest;
}

/** A request as a response sees it (`ResponseContext.request`). */
export type ResponseRequest = Omit<GenerateRequest, 'messages'>;

/** The request as a codec whose responses echo it keeps it: everything but the conversation. */
export function requestWithoutConversation(request: GenerateRequest): ResponseRequest {
  const { messages: _messages, ...rest } = request;
  return rest;
}

/**
 * The request as a codec whose responses echo none of the prompt keeps it: without the
 * conversation, the instructions (`system`, left empty) and the tools (left empty). What stays
 * is small: the model, the sampling and reasoning options, the protocols' own extensions.
 */
export function requestWithoutPrompt(request: GenerateRequest): ResponseRequest {
  const { messages: _messages, system: _system, tools: _tools, ...rest } = request;
  return { system: [], tools: [], ...rest };
}

/**
 * Stream parts → the client's wire text. Each call returns the SSE records it writes, ready to
 * send (`''` for none): records are built as strings (`sseData`, `sseEvent`), with no event objects
 * in between, because this runs for every event of every translated stream.
 */
export interface StreamEncoder {
  /** The records for one part (zero or more). */
  encode(part: StreamPart): string;
  /** Closing records (`data: [DONE]`, a missing `message_stop`); called once, after the last part. */
  finish(): string;
  /** A keep-alive to send while the upstream is silent (Anthropic `ping`, an SSE comment elsewhere). */
  keepAlive(): string;
}

export interface StreamDecoder {
  /**
   * Parts for one upstream event (zero or more). Unknown event types are skipped on purpose; an
   * event whose data is not JSON ends the stream with an error part (`invalidStreamEvent`).
   */
  decode(event: SseEvent): StreamPart[];
  /**
   * End of the upstream stream: parts still held back (a finish waiting for usage), or, when the
   * protocol's terminal event never came (`endsStream`), an error part (`streamEndedEarly`): a
   * stream cut before its end is a failure, never a finish.
   */
  end(): StreamPart[];
}

export interface EncodedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface EncodeRequestOptions {
  /** The model id the upstream knows. */
  model: string;
}

export interface EncodedRequest {
  /** Path and query relative to the provider's baseURL (`/chat/completions`, `/v1/messages`). */
  path: string;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** What the upstream protocol cannot express and was dropped or changed. */
  warnings: Warning[];
}

export interface PassthroughOptions {
  /** The model id the upstream knows. */
  model: string;
  stream: boolean;
  /** The query string of the client's request, with its `?` (e.g. `?beta=true`), or ''. */
  search: string;
}

export interface PreparedPassthrough {
  path: string;
  /** The body to send; absent when the client's body goes upstream byte for byte, unchanged. */
  body?: Record<string, unknown>;
  /** Upstream events that the client did not ask for and must not see. */
  hideEvent?: HiddenEvents;
}

/**
 * Events held back from a passthrough client. `marker` is text every such event contains, so the
 * upstream's bytes without it go to the client untouched, without being parsed.
 */
export interface HiddenEvents {
  marker: string;
  test(event: SseEvent): boolean;
}

