import type { GenerateRequest } from '../core/generate-request.js';

type Encoder = (text: string) => number;

let encoderPromise: Promise<Encoder> | undefined;

/**
 * A real tokenizer (o200k_base, as GPT-4o and later use), loaded on first use so that starting the
 * CLI stays fast. Counts are exact for OpenAI's current models and a close estimate for others.
 */
export function loadTokenCounter(): Promise<Encoder> {
  encoderPromise ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return encoderPromise;
}

/** Input tokens of a request: every text the model reads, plus tool definitions. */
export function countRequestTokens(request: GenerateRequest, count: Encoder): number {
  let total = 0;
  for (const part of request.system) total += count(part.text);
  for (const message of request.messages) {
    total += 3; // role and separators, as OpenAI's chat format counts them
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') total += count(part.text);
      else if (part.type === 'tool-call') total += count(part.toolName) + count(part.input);
      else if (part.type === 'tool-result') {
        for (const inner of part.content) if (inner.type === 'text') total += count(inner.text);
      } else if (part.type === 'file') {
        total += 85; // a low-detail image tile
      }
    }
  }
  for (const tool of request.tools) {
    total += count(tool.name) + (tool.type === 'function' ? count(tool.description ?? '') + count(JSON.stringify(tool.inputSchema)) : 0);
  }
  return total;
}
