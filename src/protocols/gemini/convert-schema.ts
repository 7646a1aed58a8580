import type { JSONSchema } from '../../core/json-schema.js';

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas (the names are data, never converted). */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * Gemini schemas → JSON Schema for the core. Gemini's OpenAPI subset (`parameters`,
 * `responseSchema`) writes types upper case (`OBJECT`) and nullability as `nullable: true`, and
 * Gemini CLI sends `parametersJsonSchema` / `responseJsonSchema` with the same upper-case types;
 * other vendors only accept lower-case JSON Schema types. `propertyOrdering` is a Gemini-only
 * keyword that strict JSON Schema validators (OpenAI structured outputs) reject, so it is left out.
 * Everything else is kept as written.
 */
export function convertGeminiSchemaToJsonSchema(schema: JSONSchema): JSONSchema {
  const converted: JSONSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'nullable' || keyword === 'propertyOrdering') continue;
    if (keyword === 'type') {
      const type = convertType(value);
      if (type !== undefined) converted.type = type;
    } else if (SCHEMA_KEYWORDS.includes(keyword)) {
      converted[keyword] = Array.isArray(value) ? value.map(convertValue) : convertValue(value);
    } else if (SCHEMA_LIST_KEYWORDS.includes(keyword) && Array.isArray(value)) {
      converted[keyword] = value.map(convertValue);
    } else if (SCHEMA_MAP_KEYWORDS.includes(keyword) && isSchema(value)) {
      converted[keyword] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, convertValue(entry)]));
    } else {
      converted[keyword] = value;
    }
  }
  if (schema.nullable === true && converted.type !== undefined) {
    const types = Array.isArray(converted.type) ? converted.type : [converted.type];
    if (!types.includes('null')) converted.type = [...types, 'null'];
  }
  return converted;
}

function convertType(type: unknown): unknown {
  if (typeof type === 'string') return type === 'TYPE_UNSPECIFIED' ? undefined : type.toLowerCase();
  if (Array.isArray(type)) return type.map((entry) => (typeof entry === 'string' ? entry.toLowerCase() : entry));
  return type;
}

function convertValue(value: unknown): unknown {
  return isSchema(value) ? convertGeminiSchemaToJsonSchema(value) : value;
}

function isSchema(value: unknown): value is JSONSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
