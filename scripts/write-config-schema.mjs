// Writes config.schema.json, the config file's JSON Schema for editors, from the built schema
// (src/config/config-schema.ts). Run by `npm run build`; a test checks the file is current.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/config/config-json-schema.js';

writeFileSync(new URL('../config.schema.json', import.meta.url), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
