import { setTimeout as sleep } from 'node:timers/promises';
import type { MockOptions } from '../../config/config-types.js';
import { textOfParts } from '../../core/content-part.js';
import { GatewayError, mapStatusToErrorCode } from '../../core/gateway-error.js';
import type { FunctionTool, GenerateRequest } from '../../core/generate-request.js';
import type { FinishReason } from '../../core/finish-reason.js';
import type { StreamPart } from '../../core/stream-part.js';
import { streamEndedEarly } from '../../core/stream-ended-early.js';
import { countRequestTokens, loadTokenCounter } from '../count-tokens.js';
import { createExampleFromSchema } from './example-from-schema.js';
import { LOREM } from './mock-models.js';

/**
 * The mock provider: generates core stream parts directly, with no network, for every client
 * protocol. Usage is counted with the real tokenizer. Throws a GatewayError before any output for
 * `mock-fail` and unknown models.
 */
export async function* generateMock(
  request: GenerateRequest,
  model: string,
  options: MockOptions,
  signal: AbortSignal,
): AsyncGenerator<StreamPart> {
  const count = await loadTokenCounter();
  const plan = planMockAnswer(request, model, options);
  const inputTokens = countRequestTokens(request, count);
  yield { type: 'start', model, usage: { input: { total: inputTokens, noCache: inputTokens }, output: {} } };
  const choices = request.n ?? 1;
  let outputTokens = 0;
  for (let choice = 0; choice < choices; choice += 1) {
    const tag = choice === 0 ? {} : { choice };
    let finishReason: FinishReason;
    if (plan.kind === 'tool-call') {
      const id = `call_mock_${choice}_${request.messages.length}`;
      yield { type: 'tool-input-start', id, toolName: plan.tool.name, ...tag };
      yield { type: 'tool-input-delta', id, delta: plan.input, ...tag };
      yield { type: 'tool-input-end', id, ...tag };
      yield { type: 'tool-call', toolCallId: id, toolName: plan.tool.name, input: plan.input, ...tag };
      outputTokens += count(plan.tool.name) + count(plan.input);
      finishReason = { unified: 'tool-calls', raw: 'tool_calls' };
    } else {
      const id = `text-${choice}`;
      yield { type: 'text-start', id, ...tag };
      finishReason = { unified: 'stop', raw: 'stop' };
      for (const piece of plan.pieces) {
        if (plan.intervalMs > 0) await sleep(plan.intervalMs, undefined, { signal });
        else if (signal.aborted) throw signal.reason;
        const tokens = count(piece);
        if (request.maxOutputTokens !== undefined && outputTokens + tokens > request.maxOutputTokens) {
          finishReason = { unified: 'length', raw: 'length' };
          break;
        }
        outputTokens += tokens;
        yield { type: 'text-delta', id, delta: piece, ...tag };
      }
      // mock-cut stops here, as an upstream whose connection closes before the end of its answer.
      if (plan.cut) throw streamEndedEarly('the end of its answer');
      yield { type: 'text-end', id, ...tag };
    }
    // Usage is for the whole response: the last choice's finish carries it.
    const last = choice === choices - 1;
    yield { type: 'finish', finishReason, usage: last ? usageOf(inputTokens, outputTokens) : { input: {}, output: {} }, ...tag };
  }
}

function usageOf(inputTokens: number, outputTokens: number) {
  return { input: { total: inputTokens, noCache: inputTokens }, output: { total: outputTokens, text: outputTokens } };
}

type MockPlan =
  | { kind: 'text'; pieces: string[]; intervalMs: number; cut?: boolean }
  | { kind: 'tool-call'; tool: FunctionTool; input: string };

function planMockAnswer(request: GenerateRequest, model: string, options: MockOptions): MockPlan {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const lastUserText = lastUser ? textOfParts(lastUser.content, '\n') : '';
  switch (model) {
    case 'mock-echo':
      return { kind: 'text', pieces: splitIntoPieces(lastUserText || '(no text)'), intervalMs: 0 };
    case 'mock-lorem':
      return { kind: 'text', pieces: splitIntoPieces(LOREM), intervalMs: 0 };
    case 'mock-slow': {
      const words = LOREM.split(' ');
      const pieces = Array.from({ length: options.slowPieces }, (_, index) => (index === 0 ? '' : ' ') + words[index % words.length]);
      return { kind: 'text', pieces, intervalMs: options.slowIntervalMs };
    }
    case 'mock-cut':
      return { kind: 'text', pieces: splitIntoPieces(LOREM).slice(0, 8), intervalMs: 0, cut: true };
    case 'mock-tools': {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool') {
        const results = last.content.map((result) => `${result.toolName || result.toolCallId}: ${textOfParts(result.content, '\n')}`);
        return { kind: 'text', pieces: splitIntoPieces(`The tool returned ${results.join('; ')}`), intervalMs: 0 };
      }
      const chosen = request.toolChoice?.type === 'tool' ? request.toolChoice.toolName : undefined;
      const tool = request.tools.find((entry): entry is FunctionTool => entry.type === 'function' && (chosen === undefined || entry.name === chosen));
      if (!tool || request.toolChoice?.type === 'none') {
        return { kind: 'text', pieces: splitIntoPieces('mock-tools calls the first function tool it is offered, and none was offered.'), intervalMs: 0 };
      }
      return { kind: 'tool-call', tool, input: JSON.stringify(createExampleFromSchema(tool.inputSchema)) };
    }
    case 'mock-fail': {
      const named = /^\s*([45]\d\d)\s*$/.exec(lastUserText);
      const status = named ? Number(named[1]) : options.failStatus;
      const code = mapStatusToErrorCode(status);
      // The message names the condition, not the number: a client's protocol may answer it with
      // another status (503 is Anthropic's 529).
      throw new GatewayError(code, `mock-fail failed as asked (${code}).`, { status });
    }
    default:
      throw new GatewayError('not_found', `The mock provider has no model '${model}'.`, { detailCode: 'model_not_found' });
  }
}

/** Words with their leading space, so the pieces join back to the text exactly. */
function splitIntoPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [text];
}
