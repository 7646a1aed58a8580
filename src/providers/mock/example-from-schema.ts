import type { JSONSchema } from '../../core/json-schema.js';

/**
 * A value valid under a JSON schema (the common subset tools use: types, properties, required,
 * enum, const, items, min/max, anyOf/oneOf). `mock-tools` calls tools with it.
 */
export function createExampleFromSchema(schema: JSONSchema | undefined, depth = 0): unknown {
  // A client's schema can be anything: `properties: {x: 'string'}` must not throw.
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const variants = (schema.anyOf ?? schema.oneOf) as JSONSchema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) return createExampleFromSchema(variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  switch (typeof type === 'string' ? type.toLowerCase() : type) {
    case 'object':
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) result[name] = createExampleFromSchema(property, depth + 1);
      return result;
    }
    case 'array': {
      // Bounded: a `minItems` of a billion is no reason to build a billion items.
      const count = typeof schema.minItems === 'number' ? Math.min(Math.max(1, schema.minItems), 100) : 1;
      return Array.from({ length: count }, () => createExampleFromSchema(schema.items as JSONSchema | undefined, depth + 1));
    }
    case 'string': {
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema.format === 'date') return '2026-01-01';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com';
      if (schema.format === 'email') return 'user@example.com';
      const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 10_000) : 0;
      return 'example'.padEnd(minLength, 'x');
    }
    case 'integer':
    case 'number': {
      const minimum = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
      const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      const value = minimum ?? (maximum !== undefined ? Math.min(1, maximum) : 1);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
