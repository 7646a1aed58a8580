import { invalidRequest } from '../core/gateway-error.js';

/**
 * Readers for fields of a client's JSON body. Each throws a 400 GatewayError that names the field
 * (`param`) and says what was expected. `null` counts as absent, as the vendors' APIs treat it.
 * Shared by every codec's `decodeRequest`.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function requireObject(value: unknown, param: string): JsonObject {
  if (!isJsonObject(value)) throw invalidRequest(param, `Invalid type for '${param}': expected an object, but got ${describe(value)}.`);
  return value;
}

export function readObject(body: JsonObject, key: string, param = key): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  return requireObject(value, param);
}

export function readString(body: JsonObject, key: string, param = key): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(param, `Invalid type for '${param}': expected a string, but got ${describe(value)}.`);
  return value;
}

export function requireString(body: JsonObject, key: string, param = key): string {
  const value = readString(body, key, param);
  if (value === undefined) throw invalidRequest(param, `Missing required parameter: '${param}'.`);
  return value;
}

export function requireNonEmptyString(body: JsonObject, key: string, param = key): string {
  const value = requireString(body, key, param);
  if (value.length === 0) throw invalidRequest(param, `Invalid '${param}': empty string.`);
  return value;
}

export function readBoolean(body: JsonObject, key: string, param = key): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidRequest(param, `Invalid type for '${param}': expected a boolean, but got ${describe(value)}.`);
  return value;
}

export interface NumberBounds {
  min?: number;
  max?: number;
  integer?: boolean;
}

export function readNumber(body: JsonObject, key: string, bounds: NumberBounds = {}, param = key): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidRequest(param, `Invalid type for '${param}': expected a number, but got ${describe(value)}.`);
  }
  if (bounds.integer && !Number.isInteger(value)) throw invalidRequest(param, `Invalid '${param}': expected an integer, but got ${value}.`);
  if (bounds.min !== undefined && value < bounds.min) {
    throw invalidRequest(param, `Invalid '${param}': ${value} is less than the minimum of ${bounds.min}.`);
  }
  if (bounds.max !== undefined && value > bounds.max) {
    throw invalidRequest(param, `Invalid '${param}': ${value} is greater than the maximum of ${bounds.max}.`);
  }
  return value;
}

export function readArray(body: JsonObject, key: string, param = key): unknown[] | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(param, `Invalid type for '${param}': expected an array, but got ${describe(value)}.`);
  return value;
}

export function requireArray(body: JsonObject, key: string, param = key): unknown[] {
  const value = readArray(body, key, param);
  if (value === undefined) throw invalidRequest(param, `Missing required parameter: '${param}'.`);
  return value;
}

export function readEnum<T extends string>(body: JsonObject, key: string, allowed: readonly T[], param = key): T | undefined {
  const value = readString(body, key, param);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidRequest(param, `Invalid value for '${param}': '${value}'. Supported values are: ${allowed.map((v) => `'${v}'`).join(', ')}.`);
  }
  return value as T;
}

/** A map of string values (OpenAI `metadata`). */
export function readStringMap(body: JsonObject, key: string, param = key): Record<string, string> | undefined {
  const value = readObject(body, key, param);
  if (value === undefined) return undefined;
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw invalidRequest(`${param}.${name}`, `Invalid type for '${param}.${name}': expected a string, but got ${describe(entry)}.`);
  }
  return value as Record<string, string>;
}

/** Fields of `body` not in `known`, for `extensions` (kept for the same protocol upstream). */
export function pickUnknownFields(body: JsonObject, known: ReadonlySet<string>): JsonObject {
  const rest: JsonObject = {};
  for (const key of Object.keys(body)) if (!known.has(key) && body[key] !== undefined) rest[key] = body[key];
  return rest;
}
