import type { Protocol } from '../core/protocol.js';

export type ProviderType = Protocol | 'mock';

export interface ProviderConfig {
  id: string;
  type: ProviderType;
  baseURL: string;
  /** Resolved from `$NAME` references; never logged. */
  apiKey?: string;
  models: string[];
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
}

export type DisconnectPolicy = 'drain' | 'cancel';

export interface GatewayConfig {
  /** The file it was read from, if any. */
  path?: string;
  providers: ProviderConfig[];
  keys: KeyConfig[];
  /** Model aliases: exact names or globs with `*` → `provider/model` or another name. */
  aliases: Record<string, string>;
  /** Model used when a client of that protocol names a model no provider has. */
  defaultModels: Partial<Record<Protocol, string>>;
  server: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    shutdownGraceMs: number;
  };
  recoveries: {
    onDisconnect: DisconnectPolicy;
    drainTimeoutMs: number;
    maxRecords: number;
    maxAgeMs: number;
  };
}

export const DEFAULT_PORT = 4141;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
