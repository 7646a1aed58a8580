import { toJsonSchema } from '@valibot/to-json-schema';
import { configFileSchema } from './config-schema.js';

/**
 * The config file's JSON Schema, for editors (`config.schema.json`, written by `npm run build`).
 * A module of its own so that the gateway, which only validates, never loads the converter.
 */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = toJsonSchema(configFileSchema, { errorMode: 'ignore' }) as Record<string, unknown>;
  return Object.assign({ $schema, title: 'Switchyard config.json' }, schema);
}
