import { requireObject, type JsonObject } from '../read-fields.js';

/**
 * Gemini requests are proto-JSON: Google accepts `system_instruction` for `systemInstruction`, and
 * curl/REST clients send the snake_case form (docs/protocols.md §4). The decoder reads every object
 * through this view so it only deals with camelCase, while errors still name the key the client
 * actually wrote. Only the keys of one level are converted: values (function arguments, schemas,
 * labels) are the client's own data and stay as sent.
 */
export interface CamelCaseFields {
  /**
   * The fields with camelCase keys: the object itself when every key is camelCase already (the
   * common case, read without copying), else a shallow copy where camelCase wins over a
   * snake_case duplicate. Read-only either way.
   */
  fields: JsonObject;
  /** The client's name for a field, for GatewayError `param` (`generationConfig.stop_sequences`). */
  param(camelKey: string): string;
}

export function toCamelCase(key: string): string {
  return key.includes('_') ? key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()) : key;
}

export function readCamelCaseFields(value: unknown, param: string): CamelCaseFields {
  const object = requireObject(value, param || 'body');
  if (!hasSnakeCaseKey(object)) return { fields: object, param: (camelKey) => (param ? `${param}.${camelKey}` : camelKey) };
  const fields: JsonObject = {};
  const originalKeys = new Map<string, string>();
  for (const [key, entry] of Object.entries(object)) {
    const camelKey = toCamelCase(key);
    // The camelCase spelling is the canonical one: a snake_case duplicate never overrides it.
    if (originalKeys.has(camelKey) && camelKey !== key) continue;
    fields[camelKey] = entry;
    originalKeys.set(camelKey, key);
  }
  return {
    fields,
    param: (camelKey) => {
      const key = originalKeys.get(camelKey) ?? camelKey;
      return param ? `${param}.${key}` : key;
    },
  };
}

/** The keys of one object level in camelCase (lenient: for parts the decoders read, not validate). */
export function camelCaseKeys(object: JsonObject): JsonObject {
  return hasSnakeCaseKey(object) ? readCamelCaseFields(object, '').fields : object;
}

function hasSnakeCaseKey(object: JsonObject): boolean {
  for (const key in object) if (key.includes('_')) return true;
  return false;
}
