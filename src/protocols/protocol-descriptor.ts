import type { Protocol } from '../core/protocol.js';
import type { ProtocolCodec } from './protocol-codec.js';
import type { JsonObject } from './read-fields.js';

/**
 * Everything the gateway knows about one wire protocol, in its own folder: the server takes its
 * routes and its clients' key headers from here, the gateway its codec, its upstream headers and
 * its rules, the config its id. Adding a protocol is a folder with one of these and a line in
 * `registry.ts`; nothing outside the folder names it.
 */
export interface ProtocolDescriptor {
  /** The id configs, records and logs use (`providers.x.type`, `defaultModels`, `protocol`). */
  readonly id: Protocol;
  readonly codec: ProtocolCodec;
  /** The endpoints its clients call. Two protocols may share a route (`GET /v1/models`): see `clientMarkers`. */
  readonly routes: readonly ProtocolRoute[];
  /**
   * Headers only this protocol's clients send. On a route several protocols share, the first
   * protocol whose marker the request carries answers; one without markers answers the rest.
   */
  readonly clientMarkers?: readonly string[];
  /** Where its clients put their key, besides `Authorization: Bearer`, which every route reads. */
  readonly clientKey?: { headers?: readonly string[]; query?: string };
  /** A header its clients must send on generation and token counting, with the 400's message. */
  readonly requiredHeader?: { names: readonly string[]; message: string };
  /** The auth headers an upstream of this protocol expects, as its official SDK sends them. */
  upstreamAuthHeaders(apiKey: string | undefined): Record<string, string>;
  /** Client headers a same-protocol upstream needs as the client sent them (Anthropic's betas). */
  readonly forwardedClientHeaders?: readonly string[];
  /**
   * How the request names its number of choices, for the 400 when an upstream that returns one
   * choice is asked for more.
   */
  readonly choiceCountField: string;
  /** Whether an upstream of this protocol returns several choices for one request (`n`). */
  readonly servesChoices: boolean;
  /** Its key under `defaultModels` in the config (the model its clients get for an unknown name). */
  readonly defaultModelKey: string;
  /** Path and query of the upstream's model list, relative to the provider's baseURL. */
  readonly upstreamModelsPath: string;
  /** The answer shapes of its token-counting endpoint, when it has one. */
  readonly countTokens?: {
    /** Count bodies lack fields their generation requests require: fill them in. */
    normalizeBody(body: JsonObject): JsonObject;
    encode(tokens: number): unknown;
  };
  /** The answer shapes of its model-listing endpoints, when it has them. */
  readonly models?: {
    encodeList(models: readonly ListedModel[]): unknown;
    encodeModel(model: ListedModel): unknown;
  };
}

/** A model as the model-listing endpoints show it. */
export interface ListedModel {
  id: string;
  /** The provider serving it. */
  ownedBy: string;
  /** Unix time in seconds. */
  created: number;
}

export interface ProtocolRoute {
  method: 'GET' | 'POST';
  /**
   * The path, with at most one `{model}`: everything between the text before it and the text
   * after it (`/v1beta/models/{model}:streamGenerateContent`), URL-decoded.
   */
  path: string;
  endpoint: RouteEndpoint;
  /** Streaming chosen by the path, not the body (Gemini's `:streamGenerateContent`). */
  stream?: boolean;
  /** A prefix a client may put before the model in the path, which is not part of its name (`models/`). */
  modelPrefix?: string;
}

/**
 * `generate`: a generation; `count-tokens`; `models`: the model list; `model`: one model (by
 * `{model}`); `refuse`: an answer of `status` with `message` in the protocol's error envelope.
 */
export type RouteEndpoint =
  | { kind: 'generate' }
  | { kind: 'count-tokens' }
  | { kind: 'models' }
  | { kind: 'model' }
  | { kind: 'refuse'; status: number; message: string };
