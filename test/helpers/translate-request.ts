import { GatewayError } from '../../src/core/gateway-error.js';
import type { GenerateRequest } from '../../src/core/generate-request.js';
import type { Protocol } from '../../src/core/protocol.js';
import { formatWarnings, type Warning } from '../../src/core/warning.js';
import { getCodec } from '../../src/protocols/codecs.js';

/** What a client sees of one request's translation: the warnings header, or a 400 naming a field. */
export type TranslationOutcome =
  | { kind: 'sent'; warnings: Warning[]; upstreamBody: Record<string, unknown> }
  | { kind: 'rejected'; status: number; param: string | undefined; message: string };

/**
 * A client request through the gateway's two steps, as runGeneration does them: the client codec
 * decodes it; then the same protocol passes the client's body through whole (no warnings: nothing
 * is lost), and any other protocol encodes it with the upstream codec.
 */
export function translateRequest(client: Protocol, upstream: Protocol, body: Record<string, unknown>): TranslationOutcome {
  try {
    const decoded = getCodec(client).decodeRequest(structuredClone(body), { pathModel: 'm', stream: false });
    if (client !== upstream && decoded.sameProtocolOnly) {
      return { kind: 'rejected', status: 400, param: decoded.sameProtocolOnly.param, message: decoded.sameProtocolOnly.message };
    }
    if (client === upstream) {
      const passthrough = getCodec(upstream).preparePassthrough(body, { model: 'm', stream: false, search: '' });
      // The client's body is forwarded whole, so nothing is reported dropped (run-generation.ts).
      return { kind: 'sent', warnings: [], upstreamBody: passthrough.body ?? body };
    }
    const encoded = getCodec(upstream).encodeRequest(decoded.request, { model: 'm' });
    return { kind: 'sent', warnings: [...decoded.warnings, ...encoded.warnings], upstreamBody: encoded.body };
  } catch (error) {
    if (!GatewayError.is(error)) throw error;
    return { kind: 'rejected', status: error.status, param: error.param, message: error.message };
  }
}

/** A decoded client request, for building on (the response round trips). */
export function decodeClientRequest(client: Protocol, body: Record<string, unknown>): GenerateRequest {
  return getCodec(client).decodeRequest(structuredClone(body), { pathModel: 'm', stream: false }).request;
}

/** A warning as the table names it: `type feature`, with message and part indexes as `[i]`. */
export function warningKey(warning: Warning): string {
  return withoutIndexes(`${warning.type} ${warning.feature}`);
}

/** A warning as the `x-switchyard-warnings` header writes it, indexes as `[i]`. */
export function warningHeaderText(warning: Warning): string {
  return withoutIndexes(formatWarnings([warning]));
}

function withoutIndexes(text: string): string {
  return text.replace(/\[\d+\]/g, '[i]');
}
