import type { ProviderConfig } from '../config/config-types.js';
import { expandResponseToStreamParts } from '../core/expand-response.js';
import { GatewayError } from '../core/gateway-error.js';
import type { GenerateRequest } from '../core/generate-request.js';
import type { Protocol } from '../core/protocol.js';
import type { StreamPart } from '../core/stream-part.js';
import type { Warning } from '../core/warning.js';
import { getCodec } from '../protocols/codecs.js';
import type { HiddenEvents, ProtocolCodec } from '../protocols/protocol-codec.js';
import type { JsonObject } from '../protocols/read-fields.js';
import { generateMock } from '../providers/mock/generate-mock.js';
import { createUpstreamAuthHeaders } from '../providers/upstream-auth-headers.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import { createGeneratorSource, createSseSource, type PartSource } from './part-source.js';
import { createPassthroughSource, type PassthroughSource } from './passthrough-source.js';
import type { UpstreamStop } from './interruption.js';

/** What the upstream answered before anything reached the client. */
export type OpenedUpstream =
  | { kind: 'error'; error: GatewayError; upstreamProtocol?: Protocol }
  | { kind: 'parts'; source: PartSource }
  | { kind: 'passthrough-stream'; source: PassthroughSource }
  | { kind: 'json'; body: Buffer; passthrough: boolean; upstreamCodec: ProtocolCodec };

export interface OpenUpstreamInput {
  inbound: Protocol;
  request: GenerateRequest;
  /** The client's own body (parsed, and as it arrived) and query, for passthrough. */
  body: JsonObject;
  bodyBytes: Buffer;
  search: string;
  clientHeader: (name: string) => string | undefined;
  clientKey?: string;
  provider: ProviderConfig;
  model: string;
  signal: UpstreamStop;
  warnings: Warning[];
}

/** Client headers a same-protocol upstream needs (Anthropic betas must reach Anthropic intact). */
const FORWARDED_CLIENT_HEADERS: Partial<Record<Protocol, readonly string[]>> = {
  'anthropic-messages': ['anthropic-beta', 'anthropic-version'],
};

/** Calls the upstream (or the mock) and waits for its status: nothing is committed to the client yet. */
export async function openUpstream(input: OpenUpstreamInput, upstream: UpstreamClient): Promise<OpenedUpstream> {
  const { provider, request } = input;
  if (provider.type === 'mock') {
    const parts = generateMock(request, input.model, provider.mock!, input.signal.toAbortSignal());
    try {
      // mock-fail and unknown models fail here, before any output, like an upstream's error status.
      const first = await parts.next();
      return { kind: 'parts', source: createGeneratorSource(parts, first) };
    } catch (error) {
      if (GatewayError.is(error)) return { kind: 'error', error };
      throw error;
    }
  }

  const passthrough = provider.type === input.inbound;
  const upstreamCodec = getCodec(provider.type);
  let path: string;
  let payload: Buffer;
  let extraHeaders: Record<string, string> = {};
  let hidden: HiddenEvents | undefined;
  if (passthrough) {
    const prepared = upstreamCodec.preparePassthrough(input.body, { model: input.model, stream: request.stream, search: input.search });
    path = prepared.path;
    payload = prepared.body === undefined ? input.bodyBytes : Buffer.from(JSON.stringify(prepared.body));
    hidden = prepared.hideEvent;
    for (const name of FORWARDED_CLIENT_HEADERS[provider.type] ?? []) {
      const value = input.clientHeader(name);
      if (value) extraHeaders[name] = value;
    }
  } else {
    const encoded = upstreamCodec.encodeRequest(request, { model: input.model });
    path = encoded.path;
    payload = Buffer.from(JSON.stringify(encoded.body));
    extraHeaders = encoded.headers ?? {};
    input.warnings.push(...encoded.warnings);
  }

  const response = await upstream.send({
    baseURL: provider.baseURL,
    path,
    headers: Object.assign(
      createUpstreamAuthHeaders(provider.type, provider.forwardClientKey ? input.clientKey : provider.apiKey),
      provider.headers,
      extraHeaders,
      request.stream && { accept: 'text/event-stream' },
    ),
    body: payload,
    signal: input.signal,
    timeoutMs: provider.timeoutMs,
  });
  if (response.status >= 400) {
    const text = await response.body.text().catch((error: unknown) => {
      throw response.failure(error);
    });
    return { kind: 'error', error: decodeUpstreamFailure(upstreamCodec, provider, input.clientKey, response.status, text), upstreamProtocol: provider.type };
  }
  const contentType = String(response.headers['content-type'] ?? '');
  if (request.stream && !contentType.includes('text/event-stream')) {
    // Some compatible servers ignore `stream`: expand their whole answer into parts.
    const text = await response.body.text().catch((error: unknown) => {
      throw response.failure(error);
    });
    const parts = expandResponseToStreamParts(upstreamCodec.decodeResponse(parseUpstreamJson(text))).values();
    return { kind: 'parts', source: createGeneratorSource(toAsync(parts), parts.next()) };
  }
  if (request.stream) {
    return passthrough
      ? { kind: 'passthrough-stream', source: createPassthroughSource({ body: response.body, createDecoder: () => upstreamCodec.createStreamDecoder(), hidden, failure: response.failure }) }
      : { kind: 'parts', source: createSseSource({ body: response.body, decoder: upstreamCodec.createStreamDecoder(), failure: response.failure }) };
  }
  const body = await response.body.bytes().catch((error: unknown) => {
    throw response.failure(error);
  });
  return { kind: 'json', body, passthrough, upstreamCodec };
}

export function parseUpstreamJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch (error) {
    throw new GatewayError('upstream_error', 'The upstream returned a body that is not JSON.', { status: 502, cause: error });
  }
}

function toAsync(parts: Iterator<StreamPart>): AsyncIterator<StreamPart> {
  return { next: async () => parts.next() };
}

/**
 * An upstream's error answer. A 401 or 403 is about the gateway's own credentials, not the
 * client's: the client gets a 502 saying which provider to fix, never the upstream's text (which
 * may quote part of the key). Any other error body has the provider's key blanked out, if quoted.
 */
function decodeUpstreamFailure(codec: ProtocolCodec, provider: ProviderConfig, clientKey: string | undefined, status: number, text: string): GatewayError {
  // With forwardClientKey the credentials are the client's own: their refusal is the client's to see.
  if (provider.forwardClientKey) return codec.decodeError(status, clientKey && clientKey.length >= 8 ? text.replaceAll(clientKey, '[redacted]') : text);
  if (status === 401 || status === 403) {
    return new GatewayError(
      'upstream_error',
      `The upstream of provider '${provider.id}' refused the gateway's credentials (HTTP ${status}): check providers.${provider.id}.apiKey in the gateway's config.`,
      { status: 502, detailCode: 'upstream_credentials' },
    );
  }
  const key = provider.apiKey;
  return codec.decodeError(status, key && key.length >= 8 ? text.replaceAll(key, '[redacted]') : text);
}
