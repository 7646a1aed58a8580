import { describe, expect, it } from 'vitest';
import type { StreamBody } from '../gateway/stream-to-client.js';
import { streamBodyReadable } from './stream-body-readable.js';

describe('streamBodyReadable', () => {
  it('reads what the body writes, waiting at drain when the reader is full, and ends with it', async () => {
    let waits = 0;
    const body: StreamBody = {
      async pipeTo(sink) {
        for (let index = 0; index < 40; index += 1) {
          if (!sink.write(Buffer.alloc(4096, 'x'))) {
            waits += 1;
            await new Promise<void>((resolve) => sink.once('drain', resolve));
          }
        }
        sink.write('end');
      },
    };
    let text = '';
    for await (const chunk of streamBodyReadable(body)) text += String(chunk);
    expect(text).toBe('x'.repeat(40 * 4096) + 'end');
    expect(waits).toBeGreaterThan(0);
  });
});
