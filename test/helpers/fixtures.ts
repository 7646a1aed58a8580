import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The recorded vendor traffic in test/fixtures (sources and licences in its README). */
export const FIXTURES_DIRECTORY = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function readFixture(protocol: string, name: string): string {
  return readFileSync(join(FIXTURES_DIRECTORY, protocol, name), 'utf8');
}

/** A fixture's SSE records, each with its blank-line terminator, for replay one by one. */
export function splitSseRecords(text: string): string[] {
  return text.split(/(?<=\r\n\r\n|\n\n)/).filter((record) => record.trim() !== '');
}
