import type { GatewayLogger } from '../gateway/run-generation.js';

/** One line per event on stderr; `quiet` keeps tests and scripts silent. Never given a secret. */
export function createLogger(options: { quiet?: boolean; write?: (line: string) => void } = {}): GatewayLogger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (level: string) => (message: string) => {
    if (options.quiet) return;
    write(`${new Date().toISOString()} ${level} ${message}`);
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}
