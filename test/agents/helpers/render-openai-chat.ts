import type { ScriptedAnswer } from './script-answer.js';
import { pieces, sse } from './render-pieces.js';

/** A scripted answer as OpenAI Chat Completions writes it (no reasoning: the protocol has none). */
export function renderOpenAIChat(answer: ScriptedAnswer, model: string, serial: number, stream: boolean, includeUsage: boolean): string {
  const id = `chatcmpl-scripted-${serial}`;
  const created = 1_780_000_000;
  const finishReason = answer.toolCall ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };
  const call = answer.toolCall && { id: answer.toolCall.id, type: 'function', function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.input) } };
  if (!stream) {
    return JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.text ?? null, refusal: null, ...(call && { tool_calls: [call] }) }, logprobs: null, finish_reason: finishReason }],
      usage,
    });
  }
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse(null, { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage && { usage: null }) });
  const records = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces(answer.text ?? '')) records.push(chunk({ content: piece }));
  if (call) {
    records.push(chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of pieces(call.function.arguments)) records.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  records.push(chunk({}, finishReason));
  if (includeUsage) records.push(sse(null, { id, object: 'chat.completion.chunk', created, model, choices: [], usage }));
  records.push(sse(null, '[DONE]'));
  return records.join('');
}
