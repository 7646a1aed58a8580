import type { ProviderConfig } from '../config/config-types.js';
import { expandResponseToStreamParts } from '../core/expand-response.js';
import { GatewayError, readRetryAfter } from '../core/gateway-error.js';
import type { GenerateRequest } from '../core/generate-request.js';
import { redactSecrets } from '../core/redact-secrets.js';
import type { StreamPart } from '../core/stream-part.js';
import type { ProtocolCodec } from '../protocols/protocol-codec.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { generateMock } from '../providers/mock/generate-mock.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import type { UpstreamStop } from './interruption.js';
import { createGeneratorSource, createSseSource, type PartSource } from './part-source.js';
import { createPassthroughSource, type PassthroughSource } from './passthrough-source.js';
import type { GenerationAttempt } from './plan-generation.js';

/** What an attempt's upstream answered before anything reached the client. */
export type OpenedUpstream =
  | { kind: 'error'; error: GatewayError; /** The upstream's status (the mock's error status). */ status: number }
  | { kind: 'parts'; source: PartSource }
  | { kind: 'passthrough-stream'; source: PassthroughSource }
  | { kind: 'json'; body: Buffer; passthrough: boolean; upstreamCodec: ProtocolCodec };

/** What every attempt of one request shares. */
export interface AttemptContext {
  request: GenerateRequest;
  /** The client's body as it arrived: a passthrough whose body is unchanged sends these bytes. */
  bodyBytes: Buffer;
  clientHeader: (name: string) => string | undefined;
  /** The client's key: sent upstream only to providers with `forwardClientKey`. */
  clientKey?: string;
  signal: UpstreamStop;
  /** Every key no text may carry out of the gateway (`requestSecrets`), worked out when needed. */
  secrets: () => readonly string[];
}

/**
 * Calls one attempt's upstream (or the mock) with `apiKey` (the provider's, or one of its pool) and
 * waits for its response head: nothing is committed to the client yet. Throws when the upstream
 * cannot be reached or times out before its head.
 */
export async function openAttempt(attempt: GenerationAttempt, context: AttemptContext, upstream: UpstreamClient, apiKey: string | undefined): Promise<OpenedUpstream> {
  const { provider, call } = attempt;
  const { request } = context;
  if (attempt.upstream === undefined || call === undefined) {
    const parts = generateMock(request, attempt.model, provider.mock!, context.signal.toAbortSignal());
    try {
      // mock-fail and unknown models fail here, before any output, like an upstream's error status.
      const first = await parts.next();
      return { kind: 'parts', source: createGeneratorSource(parts, first) };
    } catch (error) {
      if (GatewayError.is(error)) return { kind: 'error', error, status: error.status };
      throw error;
    }
  }

  const protocol = attempt.upstream;
  const passthrough = attempt.mode === 'passthrough';
  const codec = protocol.codec;
  const forwarded: Record<string, string> = {};
  // A same-protocol upstream gets the client headers it needs as the client sent them (Anthropic's betas).
  if (passthrough) {
    for (const name of protocol.forwardedClientHeaders ?? []) {
      const value = context.clientHeader(name);
      if (value) forwarded[name] = value;
    }
  }
  const response = await upstream.send({
    baseURL: provider.baseURL,
    path: call.path,
    headers: Object.assign(
      protocol.upstreamAuthHeaders(provider.forwardClientKey ? context.clientKey : apiKey),
      provider.headers,
      call.headers,
      forwarded,
      request.stream && { accept: 'text/event-stream' },
    ),
    body: call.body ?? context.bodyBytes,
    signal: context.signal,
    timeoutMs: provider.timeoutMs,
  });
  if (response.status >= 400) {
    const text = await response.body.text().catch((error: unknown) => {
      throw response.failure(error);
    });
    const error = decodeUpstreamFailure(codec, provider, response.status, redactSecrets(text, context.secrets()));
    error.retryAfter = readRetryAfter(response.headers);
    return { kind: 'error', error, status: response.status };
  }
  const contentType = String(response.headers['content-type'] ?? '');
  if (request.stream && !contentType.includes('text/event-stream')) {
    // Some compatible servers ignore `stream`: expand their whole answer into parts.
    const text = await response.body.text().catch((error: unknown) => {
      throw response.failure(error);
    });
    const parts = expandResponseToStreamParts(codec.decodeResponse(parseUpstreamJson(text))).values();
    return { kind: 'parts', source: createGeneratorSource(toAsync(parts), parts.next()) };
  }
  if (request.stream) {
    return passthrough
      ? {
          kind: 'passthrough-stream',
          source: createPassthroughSource({
            body: response.body,
            createDecoder: () => codec.createStreamDecoder(),
            endsStream: codec.endsStream,
            secrets: context.secrets,
            hidden: call.hidden,
            failure: response.failure,
          }),
        }
      : { kind: 'parts', source: createSseSource({ body: response.body, decoder: codec.createStreamDecoder(), failure: response.failure, secrets: context.secrets }) };
  }
  const body = await response.body.bytes().catch((error: unknown) => {
    throw response.failure(error);
  });
  return { kind: 'json', body, passthrough, upstreamCodec: codec };
}

export function parseUpstreamJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch (error) {
    throw new GatewayError('upstream_error', 'The upstream returned a body that is not complete JSON: it ended early or is not JSON.', {
      status: 502,
      detailCode: 'upstream_invalid_body',
      cause: error,
    });
  }
}

function toAsync(parts: Iterator<StreamPart>): AsyncIterator<StreamPart> {
  return { next: async () => parts.next() };
}

/**
 * An upstream's error answer, its text already cleared of every key. A 401 or 403 is about the
 * gateway's own credentials, not the client's: the client gets a 502 saying which provider to fix,
 * never the upstream's text. With `forwardClientKey` the credentials are the client's own, and
 * their refusal is the client's to see.
 */
function decodeUpstreamFailure(codec: ProtocolCodec, provider: ProviderConfig, status: number, text: string): GatewayError {
  if (!provider.forwardClientKey && (status === 401 || status === 403)) {
    return new GatewayError(
      'upstream_error',
      `The upstream of provider '${provider.id}' refused the gateway's credentials (HTTP ${status}): check providers.${provider.id}.apiKey in the gateway's config.`,
      { status: 502, detailCode: 'upstream_credentials' },
    );
  }
  return codec.decodeError(status, text);
}
