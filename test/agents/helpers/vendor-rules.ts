import type { UpstreamTurn } from './read-upstream-request.js';

/** A request the real vendor would refuse: the status and error body it answers with. */
export interface VendorRefusal {
  status: number;
  body: unknown;
}

/**
 * The rules of the real vendors that a translating gateway most easily breaks, checked the way the
 * vendors check them, so that a translated turn that the real vendor would refuse fails here too:
 * - Gemini 3 refuses a function call in the history without its `thoughtSignature`;
 * - Anthropic, with thinking on, refuses (mid tool loop) a last assistant turn that does not start
 *   with its thinking block, and always a tool_use without a tool_result right after it.
 */
export function checkVendorRules(turn: UpstreamTurn): VendorRefusal | undefined {
  if (turn.protocol === 'gemini') {
    for (const [index, content] of (turn.body.contents ?? []).entries()) {
      if (content.role !== 'model') continue;
      if ((content.parts ?? []).some((part: any) => part.functionCall && typeof part.thoughtSignature !== 'string')) {
        return geminiError(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`default_api:x\`, position ${index + 1}.`);
      }
    }
  }
  if (turn.protocol === 'anthropic-messages') {
    const thinking = turn.body.thinking?.type === 'enabled' || turn.body.thinking?.type === 'adaptive';
    const messages: any[] = turn.body.messages ?? [];
    for (const [index, message] of messages.entries()) {
      const blocks: any[] = Array.isArray(message.content) ? message.content : [];
      const toolUses = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
      if (message.role !== 'assistant' || toolUses.length === 0) continue;
      const last = messages[index + 1]?.content;
      const midToolLoop = index === messages.length - 2 && Array.isArray(last) && last.every((block: any) => block.type === 'tool_result');
      if (thinking && midToolLoop && !['thinking', 'redacted_thinking'].includes(blocks[0]?.type)) {
        return anthropicError(
          `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`,
        );
      }
      const next = messages[index + 1];
      const results = new Set((Array.isArray(next?.content) ? next.content : []).filter((block: any) => block.type === 'tool_result').map((block: any) => block.tool_use_id));
      if (toolUses.some((id) => !results.has(id))) {
        return anthropicError(`messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${toolUses.join(', ')}.`);
      }
    }
  }
  return undefined;
}

function geminiError(message: string): VendorRefusal {
  return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}

function anthropicError(message: string): VendorRefusal {
  return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_scripted' } };
}
