import type { GatewayLogger } from '../gateway/run-generation.js';

/** One line per event on stderr; `quiet` drops the request lines (warnings and errors stay). Never given a secret. */
export function createLogger(options: { quiet?: boolean; write?: (line: string) => void } = {}): GatewayLogger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (level: string) => (message: string) => write(`${new Date().toISOString()} ${level} ${message}`);
  const info = log('info');
  return { enabled: !options.quiet, info: (message) => void (options.quiet || info(message)), warn: log('warn'), error: log('error') };
}
