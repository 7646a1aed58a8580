import type { Readable } from 'node:stream';
import type { DisconnectPolicy, GatewayConfig } from '../config/config-types.js';
import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { GatewayError, invalidRequest, toGatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import { formatWarnings, type Warning } from '../core/warning.js';
import { getCodec } from '../protocols/codecs.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import type { JsonObject } from '../protocols/read-fields.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import { formatOutboundChunks } from '../sse/write-sse.js';
import { createClientStream } from './client-stream.js';
import type { InflightRegistry } from './inflight.js';
import type { ModelCatalog } from './model-catalog.js';
import { openUpstream, parseUpstreamJson, type OpenedUpstream } from './open-upstream.js';
import type { InterruptedReason, RecoverySink } from './recovery-sink.js';
import { renderError } from './render-error.js';
import { resolveModel } from './route-model.js';

export interface GatewayLogger {
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
  bodyText: string;
  /** The client's query string with its `?`, or ''. */
  search: string;
  /** Gemini names the model and streaming in the path. */
  pathModel?: string;
  pathStream?: boolean;
  clientHeader: (name: string) => string | undefined;
  user: string;
  requestId: string;
  /** Aborts when the client goes away. */
  clientSignal: AbortSignal;
  /** The `x-switchyard-on-disconnect` header, when sent. */
  disconnectPolicy?: DisconnectPolicy;
}

export type GenerationOutput =
  | { kind: 'json'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: Readable };

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

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
    const { request, warnings: decodeWarnings } = codec.decodeRequest(input.body, { pathModel: input.pathModel, stream: input.pathStream });
    const warnings: Warning[] = [...decodeWarnings];
    const { provider, model } = resolveModel(request.model, config, (entry) => deps.catalog.modelsOf(entry), input.inbound);
    if ((request.n ?? 1) > 1 && provider.type !== 'openai-chat' && provider.type !== 'gemini' && provider.type !== 'mock') {
      throw invalidRequest('n', `n > 1 cannot be served by the ${provider.type} upstream of '${request.model}', which returns one choice.`);
    }
    upstreamProtocol = provider.type === 'mock' ? undefined : provider.type;
    const context: ResponseContext = { requestId: input.requestId, created: Math.floor(started / 1000), model: request.model, request };
    const policy = input.disconnectPolicy ?? config.recoveries.onDisconnect;

    // Who stopped the upstream, if anyone: the client (cancel policy or drain timeout) or a shutdown.
    let stopCause: 'client' | 'shutdown' | undefined;
    const upstreamAbort = new AbortController();
    let drainTimer: NodeJS.Timeout | undefined;
    const onClientGone = () => {
      if (policy === 'cancel') {
        stopCause ??= 'client';
        upstreamAbort.abort();
      } else {
        drainTimer = setTimeout(() => {
          stopCause ??= 'client';
          upstreamAbort.abort();
        }, config.recoveries.drainTimeoutMs);
        drainTimer.unref();
      }
    };
    if (input.clientSignal.aborted) onClientGone();
    else input.clientSignal.addEventListener('abort', onClientGone, { once: true });

    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const unregister = deps.inflight.add({
      stop: () => {
        stopCause ??= 'shutdown';
        upstreamAbort.abort();
      },
      done,
    });
    const cleanUp = () => {
      clearTimeout(drainTimer);
      input.clientSignal.removeEventListener('abort', onClientGone);
      unregister();
      settle();
    };

    const headers: Record<string, string> = { 'x-switchyard-upstream': `${provider.id}/${model}` };
    const collector = createStreamCollector();
    const finishRequest = async (status: number, reason: InterruptedReason | undefined, responseText: () => string, error?: GatewayError) => {
      const usage = collector.result().usage;
      deps.logger.info(
        `${status} ${input.inbound} → ${provider.id}/${model} ${deps.now() - started}ms in=${usage.input.total ?? '-'} out=${usage.output.total ?? '-'}` +
          (reason ? ` interrupted=${reason}` : '') +
          (error ? ` error="${error.message}"` : ''),
      );
      if (!reason) return;
      await deps.recoveries
        .save({
          requestId: input.requestId,
          reason,
          user: input.user,
          model: request.model,
          protocol: input.inbound,
          provider: provider.id,
          requestBodyText: input.bodyText,
          requestBody: input.body,
          responseBodyText: responseText(),
          ...(error && { errorMessage: error.message }),
        })
        .catch((saveError: unknown) => deps.logger.error(`could not save the recovery record of ${input.requestId}: ${String(saveError)}`));
    };
    const reasonFor = (error: GatewayError | undefined): InterruptedReason | undefined => {
      if (stopCause === 'shutdown') return 'server_shutdown';
      if (stopCause === 'client' || input.clientSignal.aborted) return 'client_disconnected';
      if (!error) return undefined;
      return error.code === 'timeout' ? 'upstream_timeout' : 'upstream_error';
    };

    let opened: OpenedUpstream;
    try {
      opened = await openUpstream(
        { inbound: input.inbound, request, body: input.body, search: input.search, clientHeader: input.clientHeader, provider, model, signal: upstreamAbort.signal, warnings },
        deps.upstream,
      );
    } catch (error) {
      const gatewayError = stopCause === 'shutdown' ? shutdownError() : toGatewayError(error);
      const reason = gatewayError.status >= 500 || stopCause ? reasonFor(gatewayError) : undefined;
      await finishRequest(gatewayError.status, reason, () => JSON.stringify(codec.encodeResponse(collector.result(), context)), gatewayError);
      cleanUp();
      return errorOutput(codec, gatewayError, upstreamProtocol, headers);
    }
    if (warnings.length > 0) headers['x-switchyard-warnings'] = formatWarnings(warnings);

    if (opened.kind === 'error') {
      await finishRequest(opened.error.status, undefined, () => '', opened.error);
      cleanUp();
      return errorOutput(codec, opened.error, opened.upstreamProtocol, headers);
    }

    if (request.stream && opened.kind === 'parts') {
      const stream = streamToClient(opened, codec, context, collector, input.clientSignal, (error) => {
        const reason = reasonFor(error) ?? (input.clientSignal.aborted ? 'client_disconnected' : undefined);
        return finishRequest(200, reason, () => JSON.stringify(codec.encodeResponse(collector.result(), context)), error).finally(cleanUp);
      }, () => (stopCause === 'shutdown' ? shutdownError() : undefined));
      return { kind: 'stream', status: 200, headers: { ...SSE_HEADERS, ...headers }, body: stream };
    }

    try {
      const body = await collectJsonResponse(opened, codec, context, collector);
      const reason = reasonFor(collector.error());
      await finishRequest(200, reason, () => body, collector.error());
      return { kind: 'json', status: 200, headers: { 'content-type': 'application/json', ...headers }, body };
    } catch (error) {
      const gatewayError = stopCause === 'shutdown' ? shutdownError() : toGatewayError(error);
      await finishRequest(gatewayError.status, reasonFor(gatewayError), () => JSON.stringify(codec.encodeResponse(collector.result(), context)), gatewayError);
      return errorOutput(codec, gatewayError, upstreamProtocol, headers);
    } finally {
      cleanUp();
    }
  } catch (error) {
    return errorOutput(codec, toGatewayError(error), upstreamProtocol, {});
  }
}

function shutdownError(): GatewayError {
  return new GatewayError('overloaded', 'The gateway is shutting down; the generation was stopped and kept as a recovery record.', { status: 503 });
}

function errorOutput(codec: ProtocolCodec, error: GatewayError, upstreamProtocol: Protocol | undefined, headers: Record<string, string>): GenerationOutput {
  const rendered = renderError(codec, error, upstreamProtocol);
  return { kind: 'json', status: rendered.status, headers: { ...headers, ...rendered.headers }, body: rendered.body };
}

/** A non-stream client: the whole answer in the client's protocol (or the upstream's own bytes). */
async function collectJsonResponse(opened: Exclude<OpenedUpstream, { kind: 'error' }>, codec: ProtocolCodec, context: ResponseContext, collector: StreamCollector): Promise<string> {
  if (opened.kind === 'json') {
    const parsed = parseUpstreamJson(opened.text);
    const response = opened.upstreamCodec.decodeResponse(parsed);
    collector.add({ type: 'finish', finishReason: response.choices[0]?.finishReason ?? { unified: 'other' }, usage: response.usage });
    // Passthrough answers with the upstream's bytes; the decode above only reads usage.
    return opened.passthrough ? opened.text : JSON.stringify(codec.encodeResponse(response, context));
  }
  await opened.source.run((parts) => {
    for (const part of parts) collector.add(part);
  });
  const failure = collector.error();
  if (failure && collector.result().choices.every((choice) => choice.content.length === 0)) throw failure;
  return JSON.stringify(codec.encodeResponse(collector.result(), context));
}

/** A stream client: parts flow from the upstream to the client event by event. */
function streamToClient(
  opened: Extract<OpenedUpstream, { kind: 'parts' }>,
  codec: ProtocolCodec,
  context: ResponseContext,
  collector: StreamCollector,
  clientSignal: AbortSignal,
  onEnd: (error: GatewayError | undefined) => Promise<void>,
  stoppedBy: () => GatewayError | undefined,
): Readable {
  const { passthrough, source } = opened;
  const encoder = codec.createStreamEncoder(context);
  const client = createClientStream({ clientSignal, keepAlive: passthrough ? undefined : () => formatOutboundChunks(encoder.keepAlive()) });

  void (async () => {
    let failure: GatewayError | undefined;
    try {
      await source.run((parts, passthroughText) => {
        let text = passthrough ? passthroughText : '';
        for (const part of parts) {
          collector.add(part);
          if (!passthrough) text += formatOutboundChunks(encoder.encode(part));
        }
        return text ? client.write(text) : undefined;
      });
      failure = collector.error();
      if (!passthrough && !failure) client.write(formatOutboundChunks(encoder.finish()));
    } catch (error) {
      failure = stoppedBy() ?? toGatewayError(error);
      // Headers are sent: the error goes in the stream, in the client's protocol.
      client.write(formatOutboundChunks(encoder.encode({ type: 'error', error: failure })));
    } finally {
      client.end();
    }
    await onEnd(failure);
  })();
  return client.body;
}
