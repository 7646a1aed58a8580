import type { ScriptedAnswer } from './script-answer.js';
import { pieces, sse } from './render-pieces.js';

/** A scripted answer as Anthropic Messages writes it (shapes as in test/fixtures/anthropic-messages). */
export function renderAnthropic(answer: ScriptedAnswer, model: string, serial: number, stream: boolean): string {
  const id = `msg_scripted_${serial}`;
  const stopReason = answer.toolCall ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 30 };
  const blocks: any[] = [];
  if (answer.reasoning) blocks.push({ type: 'thinking', thinking: answer.reasoning.text, signature: answer.reasoning.signature });
  if (answer.text) blocks.push({ type: 'text', text: answer.text });
  if (answer.toolCall) blocks.push({ type: 'tool_use', id: toolUseId(answer.toolCall.id), name: answer.toolCall.name, input: answer.toolCall.input });
  if (!stream) {
    return JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
  }
  const events: string[] = [
    sse('message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      events.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const piece of pieces(block.thinking)) events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }));
      events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }));
    } else if (block.type === 'text') {
      events.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of pieces(block.text)) events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
    } else {
      events.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      for (const piece of ['', ...pieces(JSON.stringify(block.input))]) {
        events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    }
    events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(sse('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  events.push(sse('message_stop', { type: 'message_stop' }));
  return events.join('');
}

function toolUseId(id: string): string {
  return id.replace(/^call_/, 'toolu_');
}
