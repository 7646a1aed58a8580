import type { ScriptedAnswer } from './script-answer.js';
import { pieces, sse } from './render-pieces.js';

/**
 * A scripted answer as Gemini writes it (shapes as in test/fixtures/gemini): thoughts as
 * `thought: true` parts, the signature on the function call part, `finishReason` on the last chunk.
 */
export function renderGemini(answer: ScriptedAnswer, model: string, serial: number, stream: boolean): string {
  const responseId = `scripted-${serial}`;
  const usageMetadata = { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 160, thoughtsTokenCount: 10 };
  const thoughtPart = answer.reasoning && { text: answer.reasoning.text, thought: true };
  const callPart = answer.toolCall && { functionCall: { name: answer.toolCall.name, args: answer.toolCall.input }, thoughtSignature: answer.reasoning?.signature };
  const candidate = (parts: unknown[], finish: boolean) => ({ content: { role: 'model', parts }, index: 0, ...(finish && { finishReason: 'STOP' }) });
  const chunk = (parts: unknown[], finish: boolean) => ({ candidates: [candidate(parts, finish)], usageMetadata, modelVersion: model, responseId });
  if (!stream) {
    const parts = [thoughtPart, answer.text !== undefined && { text: answer.text }, callPart].filter(Boolean);
    return JSON.stringify(chunk(parts, true));
  }
  const chunks: Array<{ parts: unknown[] }> = [];
  if (thoughtPart) chunks.push({ parts: [thoughtPart] });
  for (const piece of pieces(answer.text ?? '')) chunks.push({ parts: [{ text: piece }] });
  if (callPart) chunks.push({ parts: [callPart] });
  return chunks.map((entry, index) => sse(null, chunk(entry.parts, index === chunks.length - 1))).join('');
}
