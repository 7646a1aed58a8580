import { describe, expect, it } from 'vitest';
import { convertGeminiSchemaToJsonSchema } from './convert-schema.js';

describe('convertGeminiSchemaToJsonSchema', () => {
  it('lower-cases types at every depth, turns nullable into a null type, drops propertyOrdering', () => {
    expect(
      convertGeminiSchemaToJsonSchema({
        type: 'OBJECT',
        description: 'A person.',
        properties: {
          NAME: { type: 'STRING', nullable: true, enum: ['Ada', 'ALAN'] },
          tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1 },
          pet: { anyOf: [{ type: 'OBJECT', properties: { kind: { type: 'STRING' } } }, { type: 'NULL' }] },
          any: { type: 'TYPE_UNSPECIFIED' },
        },
        required: ['NAME'],
        propertyOrdering: ['NAME', 'tags'],
        $defs: { Id: { type: ['INTEGER', 'STRING'] } },
      }),
    ).toEqual({
      type: 'object',
      description: 'A person.',
      properties: {
        NAME: { type: ['string', 'null'], enum: ['Ada', 'ALAN'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        pet: { anyOf: [{ type: 'object', properties: { kind: { type: 'string' } } }, { type: 'null' }] },
        any: {},
      },
      required: ['NAME'],
      $defs: { Id: { type: ['integer', 'string'] } },
    });
  });

  it('leaves a JSON Schema that is already lower case unchanged', () => {
    const schema = { type: 'object', properties: { a: { type: ['string', 'null'] } }, additionalProperties: false };
    expect(convertGeminiSchemaToJsonSchema(schema)).toEqual(schema);
  });
});
