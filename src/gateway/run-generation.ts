import type { DisconnectPolicy, GatewayConfig } from '../config/config-types.js';
import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { invalidRequest, toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import { formatWarnings, type Warning } from '../core/warning.js';
import { formatRequestLine } from './format-request-line.js';
import { getCodec } from '../protocols/codecs.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import type { JsonObject } from '../protocols/read-fields.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import { collectJsonResponse } from './collect-json-response.js';
import type { ClientConnection } from './client-connection.js';
import type { InflightRegistry } from './inflight.js';
import type { ModelCatalog } from './model-catalog.js';
import { createInterruption } from './interruption.js';
import { openUpstream, type OpenedUpstream } from './open-upstream.js';
import type { InterruptedReason, RecoverySink } from './recovery-sink.js';
import { renderError } from './render-error.js';
import { resolveModel } from './route-model.js';
import { streamToClient, type StreamBody } from './stream-to-client.js';

export interface GatewayLogger {
  /** Whether request lines are wanted at all: nothing is formatted for a quiet logger. */
  readonly enabled: boolean;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface GatewayDeps {
  getConfig(): GatewayConfig;
  upstream: UpstreamClient;
  catalog: ModelCatalog;
  recoveries: RecoverySink;
  inflight: InflightRegistry;
  logger: GatewayLogger;
  now(): number;
}

export interface GenerationInput {
  inbound: Protocol;
  body: JsonObject;
  /** The body as it arrived, for a passthrough and a recovery record (kept as bytes, off the JS heap). */
  bodyBytes: Buffer;
  /** The client's query string with its `?`, or ''. */
  search: string;
  /** Gemini names the model and streaming in the path. */
  pathModel?: string;
  pathStream?: boolean;
  clientHeader: (name: string) => string | undefined;
  user: string;
  /** The client's key: sent upstream only to providers with `forwardClientKey`; never logged or stored. */
  clientKey?: string;
  requestId: string;
  /** Whether the client has gone away. */
  client: ClientConnection;
  /** The `x-switchyard-on-disconnect` header, when sent. */
  disconnectPolicy?: DisconnectPolicy;
}

export type GenerationOutput =
  | { kind: 'json'; status: number; headers: Record<string, string>; body: string | Buffer }
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: StreamBody };

// No `connection` header: Node writes the true one (kept, with the idle timeout clients use to stop
// reusing a connection the server is about to close, or `close` when the client asked for it).
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/**
 * One generation request, start to end: decode, route, call the upstream (passthrough, translated
 * or mock), answer in the client's protocol, and keep a recovery record when it does not end
 * normally towards the client.
 */
export async function runGeneration(deps: GatewayDeps, input: GenerationInput): Promise<GenerationOutput> {
  const started = deps.now();
  const codec = getCodec(input.inbound);
  const config = deps.getConfig();
  let upstreamProtocol: Protocol | undefined;
  try {
    const { request, warnings: decodeWarnings, sameProtocolOnly } = codec.decodeRequest(input.body, { pathModel: input.pathModel, stream: input.pathStream });
    const { provider, model } = resolveModel(request.model, config, (entry) => deps.catalog.modelsOf(entry), input.inbound);
    if (sameProtocolOnly && provider.type !== input.inbound) throw invalidRequest(sameProtocolOnly.param, sameProtocolOnly.message);
    // A passthrough forwards the client's body as it is: what decoding could not map still arrives.
    const warnings: Warning[] = provider.type === input.inbound ? [] : [...decodeWarnings];
    if ((request.n ?? 1) > 1 && provider.type !== 'openai-chat' && provider.type !== 'gemini' && provider.type !== 'mock') {
      const field = input.inbound === 'gemini' ? 'generationConfig.candidateCount' : 'n';
      throw invalidRequest(field, `${field} > 1 cannot be served by the ${provider.type} upstream of '${request.model}', which returns one choice.`);
    }
    upstreamProtocol = provider.type === 'mock' ? undefined : provider.type;
    const context: ResponseContext = { requestId: input.requestId, created: Math.floor(started / 1000), model: request.model, request: codec.responseRequestOf(request) };
    const interruption = createInterruption({
      client: input.client,
      policy: input.disconnectPolicy ?? config.recoveries.onDisconnect,
      drainTimeoutMs: config.recoveries.drainTimeoutMs,
      inflight: deps.inflight,
    });
    const headers: Record<string, string> = { 'x-switchyard-upstream': `${provider.id}/${model}` };
    // What the response holds so far, for the log and recoveries; a passthrough stream brings its own tap.
    let collector: StreamCollector = createStreamCollector();
    const partialResponse = () => JSON.stringify(codec.encodeResponse(collector.result(), context));

    // What the log line and a recovery record need, taken out of `input`: the closures below live
    // as long as the stream and must not hold the parsed body (a record parses the text again).
    const { inbound, requestId, user, bodyBytes } = input;
    /** Logs the request with its usage, and keeps a recovery record when it was interrupted. */
    const finish = async (
      status: number,
      reason: InterruptedReason | undefined,
      responseText: () => string,
      error?: GatewayError,
      usage: () => Usage = () => collector.result().usage,
    ) => {
      if (deps.logger.enabled) deps.logger.info(formatRequestLine({ status, inbound, upstream: `${provider.id}/${model}`, ms: deps.now() - started, usage: usage(), reason, error }));
      if (reason) {
        await deps.recoveries
          .save({
            requestId,
            reason,
            user,
            model: context.model,
            protocol: inbound,
            provider: provider.id,
            requestBodyText: bodyBytes.toString('utf8'),
            responseBodyText: responseText(),
            ...(error && { errorMessage: error.message }),
          })
          .catch((saveError: unknown) => deps.logger.error(`could not save the recovery record of ${requestId}: ${String(saveError)}`));
      }
      interruption.end();
    };

    let opened: OpenedUpstream;
    try {
      opened = await openUpstream(
        { inbound: input.inbound, request, body: input.body, bodyBytes: input.bodyBytes, search: input.search, clientHeader: input.clientHeader, clientKey: input.clientKey, provider, model, signal: interruption.signal, warnings },
        deps.upstream,
      );
    } catch (error) {
      // The upstream could not be reached, timed out, or was stopped before it answered.
      const failure = interruption.shutdownError() ?? toGatewayError(error);
      await finish(failure.status, interruption.reasonFor(failure), partialResponse, failure);
      return errorOutput(codec, failure, upstreamProtocol, headers);
    }
    if (warnings.length > 0) headers['x-switchyard-warnings'] = formatWarnings(warnings);

    if (opened.kind === 'error') {
      // The client gets the upstream's error in full: not an interruption.
      await finish(opened.error.status, undefined, () => '', opened.error);
      return errorOutput(codec, opened.error, opened.upstreamProtocol, headers);
    }

    if (opened.kind === 'passthrough-stream') collector = opened.source.tap;
    if (opened.kind === 'passthrough-stream' || (request.stream && opened.kind === 'parts')) {
      const body = streamToClient({
        opened,
        codec,
        context,
        collector,
        client: input.client,
        stoppedBy: () => interruption.shutdownError(),
        onEnd: (error) => finish(200, interruption.reasonFor(error), partialResponse, error),
      });
      return { kind: 'stream', status: 200, headers: Object.assign({}, SSE_HEADERS, headers), body };
    }

    try {
      const response = await collectJsonResponse(opened, codec, context, collector);
      await finish(200, interruption.reasonFor(collector.error()), () => response.body.toString(), collector.error(), response.usage);
      return { kind: 'json', status: 200, headers: { 'content-type': 'application/json', ...headers }, body: response.body };
    } catch (error) {
      const failure = interruption.shutdownError() ?? toGatewayError(error);
      await finish(failure.status, interruption.reasonFor(failure), partialResponse, failure);
      return errorOutput(codec, failure, upstreamProtocol, headers);
    }
  } catch (error) {
    return errorOutput(codec, toGatewayError(error), upstreamProtocol, {});
  }
}

function errorOutput(codec: ProtocolCodec, error: GatewayError, upstreamProtocol: Protocol | undefined, headers: Record<string, string>): GenerationOutput {
  const rendered = renderError(codec, error, upstreamProtocol);
  return { kind: 'json', status: rendered.status, headers: Object.assign({}, headers, rendered.headers), body: rendered.body };
}
