import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSseEvents } from '../sse/parse-sse.js';
import { FIXTURES_DIRECTORY, readFixture } from '../../test/helpers/fixtures.js';
import { getCodec } from './codecs.js';
import { BUILT_IN_PROTOCOLS } from './registry.js';

const PROTOCOLS = BUILT_IN_PROTOCOLS.map((protocol) => protocol.id);

/**
 * One completion rule per protocol: for every recorded stream cut after each of its events, the
 * decoder ends with an error part exactly when none of the events it saw ends the stream by the
 * codec's `endsStream`, and with a finish (or the upstream's own error) otherwise.
 */
describe.each(PROTOCOLS)('%s: a stream is complete only at its terminal event', (protocol) => {
  const codec = getCodec(protocol);
  const streams = readdirSync(join(FIXTURES_DIRECTORY, protocol)).filter((name) => name.endsWith('.sse'));

  it.each(streams)('%s, cut after each event', (name) => {
    const events = parseSseEvents(readFixture(protocol, name));
    expect(events.length).toBeGreaterThan(0);
    for (let kept = 0; kept <= events.length; kept += 1) {
      const decoder = codec.createStreamDecoder();
      const parts = events.slice(0, kept).flatMap((event) => decoder.decode(event));
      parts.push(...decoder.end());
      const ended = events.slice(0, kept).some((event) => codec.endsStream(event));
      const last = parts.at(-1);
      const cut = last?.type === 'error' && last.error.detailCode === 'upstream_ended_early';
      expect({ kept, cut }).toEqual({ kept, cut: !ended });
      if (ended) expect(parts.some((part) => part.type === 'finish' || part.type === 'error')).toBe(true);
    }
    // The whole recording is complete.
    expect(events.some((event) => codec.endsStream(event))).toBe(true);
  });
});
