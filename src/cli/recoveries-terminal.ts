import { createInterface } from 'node:readline/promises';
import { Chalk, type ChalkInstance } from 'chalk';
import type { RecoveriesCliIo } from './recoveries-cli-io.js';

/** Colours only on a terminal; chalk's own detection (NO_COLOR, FORCE_COLOR) picks the level there. */
export function createCliColors(io: RecoveriesCliIo, chalkLevel: ChalkInstance['level']): ChalkInstance {
  return new Chalk({ level: io.stdout.isTTY ? Math.max(chalkLevel, 1) as ChalkInstance['level'] : 0 });
}

/**
 * An ora spinner on stderr for work that may be slow (deleting many files, hashing a large body),
 * only on a terminal, and only once the work has taken 150 ms, so fast commands never flash one.
 */
export async function withSpinner<T>(io: RecoveriesCliIo, text: string, work: () => Promise<T>): Promise<T> {
  if (!io.stderr.isTTY) return work();
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: io.stderr as NodeJS.WritableStream });
  const timer = setTimeout(() => spinner.start(), 150);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    if (spinner.isSpinning) spinner.stop();
  }
}

/** Asks on stderr (stdout may be piped) and reads one line; only `y` or `yes` confirms. */
export async function askConfirmation(io: RecoveriesCliIo, question: string): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  // Input that ends without an answer (Ctrl-D) declines rather than leaving the question pending.
  const closed = new Promise<string>((resolve) => prompt.once('close', () => resolve('')));
  try {
    const answer = await Promise.race([prompt.question(`${question} [y/N] `), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
