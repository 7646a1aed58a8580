import { requireObject, type JsonObject } from '../read-fields.js';

/**
 * Gemini requests are proto-JSON: Google accepts `system_instruction` for `systemInstruction`, and
 * curl/REST clients send the snake_case form (PROTOCOLS.md §4). The decoder reads every object
 * through this view so it only deals with camelCase, while errors still name the key the client
 * actually wrote. Only the keys of one level are converted: values (function arguments, schemas,
 * labels) are the client's own data and stay as sent.
 */
export interface CamelCaseFields {
  /** A shallow copy whose keys are camelCase; when both spellings are present, camelCase wins. */
  fields: JsonObject;
  /** The client's name for a field, for GatewayError `param` (`generationConfig.stop_sequences`). */
  param(camelKey: string): string;
}

export function toCamelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

export function readCamelCaseFields(value: unknown, param: string): CamelCaseFields {
  const object = requireObject(value, param || 'body');
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
  return readCamelCaseFields(object, '').fields;
}
