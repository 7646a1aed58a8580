import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../core/generate-request.js';
import { encodeOpenAIChatRequest } from './encode-request.js';

function requestWith(fields: Partial<GenerateRequest>): GenerateRequest {
  return { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], stream: false, extensions: {}, ...fields };
}

describe('encodeOpenAIChatRequest reasoning', () => {
  it('sends an effort as reasoning_effort, and a budget as the nearest effort with a warning', () => {
    expect(encodeOpenAIChatRequest(requestWith({ reasoning: { effort: 'high' } }), { model: 'm' })).toMatchObject({ body: { reasoning_effort: 'high' }, warnings: [] });
    expect(encodeOpenAIChatRequest(requestWith({ reasoning: { enabled: true, budgetTokens: 4000 } }), { model: 'm' })).toMatchObject({
      body: { reasoning_effort: 'medium' },
      warnings: [{ type: 'changed', feature: 'reasoning budget', details: "4000 tokens sent as reasoning_effort 'medium'" }],
    });
  });

  it('drops a budget sent beside an effort (Anthropic thinking next to output_config.effort), with a warning', () => {
    expect(encodeOpenAIChatRequest(requestWith({ reasoning: { effort: 'low', budgetTokens: 9000 } }), { model: 'm' })).toMatchObject({
      body: { reasoning_effort: 'low' },
      warnings: [{ type: 'dropped', feature: 'reasoning budget', details: "9000 tokens not sent: the upstream takes reasoning_effort 'low' only" }],
    });
  });

  it('says so when reasoning is turned off without an effort (Anthropic thinking disabled, Gemini thinkingBudget 0)', () => {
    const encoded = encodeOpenAIChatRequest(requestWith({ reasoning: { enabled: false } }), { model: 'm' });
    expect(encoded.body).not.toHaveProperty('reasoning_effort');
    expect(encoded.warnings).toEqual([{ type: 'dropped', feature: 'reasoning disabled', details: "sent without reasoning_effort; the model's default applies" }]);
  });
});
