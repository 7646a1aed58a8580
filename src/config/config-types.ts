import type { Protocol } from '../core/protocol.js';

export type ProviderType = Protocol | 'mock';

export interface ProviderConfig {
  id: string;
  type: ProviderType;
  baseURL: string;
  /** Resolved from `$NAME` references; never logged. The first key of a pool. */
  apiKey?: string;
  /** A key pool (`apiKey` as a list of two or more): requests rotate over them. */
  apiKeys?: readonly string[];
  models: string[];
  /** Per model id: the limits the config gives (`models` entries written as objects). */
  limits?: Readonly<Record<string, ModelLimits>>;
  /** This provider's `retry`, merged over the top-level one; unset: the top-level one. */
  retry?: RetryConfig;
  /** This provider's `cooldown`, merged over the top-level one; unset: the top-level one. */
  cooldown?: CooldownConfig;
  headers: Record<string, string>;
  /** Fetch the upstream's model list in the background (default: on for remote presets). */
  discoverModels: boolean;
  /** Send the client's own key upstream instead of `apiKey` (each user pays with their key). */
  forwardClientKey: boolean;
  /** Upstream headers and body timeout. */
  timeoutMs: number;
  /**
   * What to do with the upstream when the client goes away: `drain` keeps reading it into a
   * recovery record (tokens that cost money), `cancel` stops it (a local GPU is freed for the next
   * request). Unset: `recoveries.onDisconnect`.
   */
  onDisconnect?: DisconnectPolicy;
  /** Mock provider options. */
  mock?: MockOptions;
}

export interface ModelLimits {
  /** Output tokens the model allows: a request asking for more is clamped, with a warning. */
  maxOutputTokens?: number;
  /** The model's context: a longer prompt skips the target. */
  contextTokens?: number;
}

export interface RetryConfig {
  /** Tries of one target, the first included. */
  attempts: number;
  /** Upstream statuses worth another try (or the next target). */
  onStatus: readonly number[];
  /** The longest `retry-after` waited for; a longer one moves on to the next target. */
  maxWaitMs: number;
}

export interface CooldownConfig {
  /** Failed requests in a row (after their retries) that put a provider aside. */
  failures: number;
  /** How long it stays aside while another target can serve. */
  ms: number;
}

/** The conditions of a route, all of which must hold; `false` means "must not". */
export interface RouteWhen {
  /** Glob on the requested model name, compiled. */
  model?: RegExp;
  /** The client's protocol id. */
  protocol?: Protocol;
  minInputTokens?: number;
  thinking?: boolean;
  images?: boolean;
  tools?: boolean;
  /** Header name (lower case) → glob on its value (compiled); `true`: present, `false`: absent. */
  header?: Readonly<Record<string, RegExp | boolean>>;
}

export interface RouteRule {
  when: RouteWhen;
  /** Alias names, `provider/model`s or listed model names, tried in order. */
  to: readonly string[];
}

export interface MockOptions {
  /** Delay between the pieces of `mock-slow`. */
  slowIntervalMs: number;
  /** Number of pieces `mock-slow` streams. */
  slowPieces: number;
  /** Status `mock-fail` answers with (a user message that is a status number overrides it). */
  failStatus: number;
}

export interface KeyConfig {
  key: string;
  user: string;
  /** Sees every user's requests and records on the inspector page. */
  admin: boolean;
}

export type DisconnectPolicy = 'drain' | 'cancel';

export interface GatewayConfig {
  /** The file it was read from, if any. */
  path?: string;
  providers: ProviderConfig[];
  keys: KeyConfig[];
  /** Model aliases: exact names or globs with `*` → `provider/model`s or other names, tried in order. */
  aliases: Record<string, readonly string[]>;
  /** Checked in order before aliases; the first whose `when` holds gives the targets. */
  routes: readonly RouteRule[];
  /** Whether planning needs the prompt's token count (a route's `minInputTokens`, a model's `contextTokens`). */
  countsInputTokens: boolean;
  retry: RetryConfig;
  cooldown: CooldownConfig;
  /** Model used when a client of that protocol names a model no provider has. */
  defaultModels: Partial<Record<Protocol, string>>;
  server: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    shutdownGraceMs: number;
    /** Host header names (or name:port) accepted besides loopback and the served address. */
    allowedHosts: string[];
  };
  recoveries: {
    onDisconnect: DisconnectPolicy;
    drainTimeoutMs: number;
    maxRecords: number;
    maxAgeMs: number;
    /** A retry of an interrupted request is answered from its record (docs/recoveries.md, "Resume on retry"). */
    resume: boolean;
    resumeWindowMs: number;
  };
  /** Where recovery records are kept (docs/team.md). */
  store: StoreConfig;
  inspector: {
    /** Requests kept in memory for the inspector page; 0: none. */
    keep: number;
    /** The most memory their bodies take, in MB; past it the oldest bodies are dropped. */
    bodyMaxMb: number;
  };
  /** The request log under `$SWITCHYARD_HOME/log`. */
  log: {
    enabled: boolean;
    maxAgeMs: number;
    maxBytes: number;
    bodies: boolean;
    bodyMaxBytes: number;
  };
  /** Price overrides by `provider/model` (or a glob), USD per million tokens. */
  prices: Record<string, ModelPriceConfig>;
}

/** `files`: under $SWITCHYARD_HOME; `postgres`: one database shared by several instances (`$NAME` in the URL already read). */
export type StoreConfig = { type: 'files' } | { type: 'postgres'; url: string; drainLeaseMs?: number };

export interface ModelPriceConfig {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export const DEFAULT_RETRY: RetryConfig = { attempts: 1, onStatus: [408, 429, 500, 502, 503, 504, 529], maxWaitMs: 20_000 };
export const DEFAULT_COOLDOWN: CooldownConfig = { failures: 3, ms: 30_000 };

export const DEFAULT_PORT = 4141;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
