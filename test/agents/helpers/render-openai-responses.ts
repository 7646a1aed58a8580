import type { ScriptedAnswer } from './script-answer.js';
import { pieces, sse } from './render-pieces.js';

/** A scripted answer as OpenAI Responses writes it (shapes as in test/fixtures/openai-responses). */
export function renderOpenAIResponses(answer: ScriptedAnswer, model: string, serial: number, stream: boolean): string {
  const responseId = `resp_scripted_${serial}`;
  const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 0 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 }, total_tokens: 150 };
  const items: any[] = [];
  if (answer.reasoning) {
    items.push({ id: `rs_scripted_${serial}`, type: 'reasoning', summary: [{ type: 'summary_text', text: answer.reasoning.text }], encrypted_content: answer.reasoning.signature });
  }
  if (answer.text) {
    items.push({ id: `msg_scripted_${serial}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }] });
  }
  const call = answer.toolCall;
  if (call && typeof call.input === 'string') {
    items.push({ id: `ctc_scripted_${serial}`, type: 'custom_tool_call', status: 'completed', call_id: call.id, name: call.name, input: call.input });
  } else if (call) {
    items.push({ id: `fc_scripted_${serial}`, type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input) });
  }
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id: responseId,
    object: 'response',
    created_at: 1_780_000_000,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    store: false,
    usage: withUsage ? usage : null,
  });
  if (!stream) return JSON.stringify(response('completed', items, true));

  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: sequence++, ...data });
  const records = [event('response.created', { response: response('in_progress', [], false) }), event('response.in_progress', { response: response('in_progress', [], false) })];
  items.forEach((item, outputIndex) => {
    if (item.type === 'reasoning') {
      records.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } }));
      records.push(event('response.reasoning_summary_part.added', { item_id: item.id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } }));
      for (const piece of pieces(item.summary[0].text)) {
        records.push(event('response.reasoning_summary_text.delta', { item_id: item.id, output_index: outputIndex, summary_index: 0, delta: piece }));
      }
      records.push(event('response.reasoning_summary_text.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, text: item.summary[0].text }));
      records.push(event('response.reasoning_summary_part.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, part: item.summary[0] }));
    } else if (item.type === 'message') {
      const text = item.content[0].text;
      records.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } }));
      records.push(event('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }));
      for (const piece of pieces(text)) records.push(event('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] }));
      records.push(event('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] }));
      records.push(event('response.content_part.done', { item_id: item.id, output_index: outputIndex, content_index: 0, part: item.content[0] }));
    } else if (item.type === 'custom_tool_call') {
      records.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', input: '' } }));
      for (const piece of pieces(item.input)) records.push(event('response.custom_tool_call_input.delta', { item_id: item.id, output_index: outputIndex, delta: piece }));
      records.push(event('response.custom_tool_call_input.done', { item_id: item.id, output_index: outputIndex, input: item.input }));
    } else {
      records.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } }));
      for (const piece of pieces(item.arguments)) records.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: piece }));
      records.push(event('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: item.arguments }));
    }
    records.push(event('response.output_item.done', { output_index: outputIndex, item }));
  });
  records.push(event('response.completed', { response: response('completed', items, true) }));
  return records.join('');
}
