import { describe, expect, it } from 'vitest';
import { collectStreamParts, createStreamCollector } from './collect-stream.js';
import { GatewayError } from './gateway-error.js';
import type { StreamPart } from './stream-part.js';

const usage = { input: { total: 3 }, output: { total: 5 } };

describe('collectStreamParts', () => {
  it('keeps the choices of an n > 1 stream apart and lists them by index, whatever order they came in', () => {
    const parts: StreamPart[] = [
      { type: 'start', id: 'resp_1', model: 'm' },
      { type: 'text-delta', id: 't2', delta: 'two', choice: 2 },
      { type: 'text-delta', id: 't0', delta: 'ze' },
      { type: 'text-delta', id: 't1', delta: 'one', choice: 1 },
      { type: 'text-delta', id: 't0', delta: 'ro' },
      { type: 'finish', finishReason: { unified: 'length' }, usage, choice: 2 },
      { type: 'finish', finishReason: { unified: 'stop' }, usage, choice: 1 },
      { type: 'finish', finishReason: { unified: 'stop' }, usage },
    ];
    expect(collectStreamParts(parts)).toEqual({
      id: 'resp_1',
      model: 'm',
      usage,
      choices: [
        { index: 0, content: [{ type: 'text', text: 'zero' }], finishReason: { unified: 'stop' } },
        { index: 1, content: [{ type: 'text', text: 'one' }], finishReason: { unified: 'stop' } },
        { index: 2, content: [{ type: 'text', text: 'two' }], finishReason: { unified: 'length' } },
      ],
    });
  });

  it('adds no choice 0 to a stream that only had other choices', () => {
    const parts: StreamPart[] = [{ type: 'text-delta', id: 't', delta: 'x', choice: 1 }];
    expect(collectStreamParts(parts).choices).toEqual([{ index: 1, content: [{ type: 'text', text: 'x' }], finishReason: { unified: 'other' } }]);
  });

  it('gives an empty stream one empty choice, and a failed one an error finish', () => {
    expect(collectStreamParts([]).choices).toEqual([{ index: 0, content: [], finishReason: { unified: 'other' } }]);
    const error = new GatewayError('upstream_error', 'cut', { status: 502 });
    const collector = createStreamCollector();
    collector.add({ type: 'text-delta', id: 't', delta: 'Hel' });
    collector.add({ type: 'error', error });
    expect(collector.error()).toBe(error);
    expect(collector.result().choices).toEqual([{ index: 0, content: [{ type: 'text', text: 'Hel' }], finishReason: { unified: 'error' } }]);
  });

  it('keeps text, reasoning and tool calls in the order they opened, by the id of their parts', () => {
    const parts: StreamPart[] = [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'reasoning-end', id: 'r', signature: 'sig' },
      { type: 'text-start', id: 'a' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'read' },
      { type: 'text-delta', id: 'a', delta: 'Hi' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"pa' },
      { type: 'tool-input-delta', id: 'call_1', delta: 'th":1}' },
      { type: 'text-end', id: 'a', protocolMetadata: { gemini: { thoughtSignature: 's' } } },
      // A text part reusing an ended id opens a new part.
      { type: 'text-delta', id: 'a', delta: ' again' },
      { type: 'tool-input-end', id: 'call_1' },
      // The whole call is authoritative over its streamed arguments.
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: '{"path":1}' },
      // A call with no streamed input of its own.
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'list', input: '{}' },
    ];
    expect(collectStreamParts(parts).choices[0].content).toEqual([
      { type: 'reasoning', text: 'think', signature: 'sig' },
      { type: 'text', text: 'Hi', protocolMetadata: { gemini: { thoughtSignature: 's' } } },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: '{"path":1}' },
      { type: 'text', text: ' again' },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'list', input: '{}' },
    ]);
  });
});

describe('createStreamCollector', () => {
  it('keeps every delta of a long stream, and reading it before the end changes nothing of what follows', () => {
    const collector = createStreamCollector();
    let text = '';
    let input = '';
    collector.add({ type: 'tool-input-start', id: 'call_1', toolName: 'write' });
    for (let index = 0; index < 1000; index += 1) {
      const delta = `word${index} `;
      collector.add({ type: 'text-delta', id: 't', delta });
      collector.add({ type: 'tool-input-delta', id: 'call_1', delta: `${index},` });
      text += delta;
      input += `${index},`;
      if (index === 500) {
        // A partial response (a recovery record of a cut stream) has the text so far.
        expect(collector.result().choices[0].content).toEqual([
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'write', input },
          { type: 'text', text },
        ]);
      }
    }
    collector.add({ type: 'text-end', id: 't' });
    expect(collector.result().choices[0].content).toEqual([
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'write', input },
      { type: 'text', text },
    ]);
  });
});
