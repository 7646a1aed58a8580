import { writeSync } from 'node:fs';
import type { GatewayLogger } from '../gateway/run-generation.js';
import { ByteBatch } from '../log/byte-batch.js';
import { isoTime } from '../log/iso-time.js';

/** How long lines wait to be written to stderr together: one write per this many ms under load. */
const FLUSH_DELAY_MS = 20;

/**
 * One line per event on stderr; `quiet` drops the request lines (warnings and errors stay). Never
 * given a secret. Lines go out in batches, off the request path: a synchronous write per request
 * (stderr to a file or a terminal is synchronous in Node) cost a third of passthrough throughput,
 * and the lines wait as bytes (`ByteBatch`), not as strings that outlive their request.
 * `write` takes each line at once instead (tests read them as they come).
 */
export function createLogger(options: { quiet?: boolean; write?: (line: string) => void } = {}): GatewayLogger {
  const write = options.write ?? createBatchedStderr();
  const log = (level: string) => (message: string) => write(`${isoTime(Date.now())} ${level} ${message}`);
  const info = log('info');
  return { enabled: !options.quiet, info: (message) => void (options.quiet || info(message)), warn: log('warn'), error: log('error') };
}

function createBatchedStderr(): (line: string) => void {
  const pending = new ByteBatch();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (pending.length === 0) return;
    const lines = pending.take();
    process.stderr.write(lines, () => pending.release(lines));
  };
  // Whatever is still queued when the process ends is written before it does.
  process.once('exit', () => {
    if (timer !== undefined) clearTimeout(timer);
    if (pending.length > 0) {
      try {
        writeSync(2, pending.take());
      } catch {
        // stderr closed: nowhere left to say it.
      }
    }
  });
  return (line) => {
    pending.addLine(line);
    if (timer === undefined) {
      timer = setTimeout(flush, FLUSH_DELAY_MS);
      timer.unref();
    }
  };
}
