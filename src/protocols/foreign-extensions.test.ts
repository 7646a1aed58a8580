import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../core/generate-request.js';
import { warnForeignExtensions } from './foreign-extensions.js';

function requestWith(extensions: GenerateRequest['extensions']): GenerateRequest {
  return { model: 'm', system: [], messages: [], tools: [], stream: false, extensions };
}

describe('warnForeignExtensions', () => {
  it("warns about each field of another protocol, never about the target's own", () => {
    const request = requestWith({ 'openai-responses': { prompt_cache_key: 'k', store: true }, gemini: { safetySettings: [] } });
    expect(warnForeignExtensions(request, 'gemini')).toEqual([
      { type: 'dropped', feature: 'prompt_cache_key', details: 'not expressible for an upstream speaking gemini' },
      { type: 'dropped', feature: 'store', details: 'not expressible for an upstream speaking gemini' },
    ]);
  });

  it('says nothing of fields that ask for what the gateway does anyway (include_usage, store: false)', () => {
    const request = requestWith({ 'openai-chat': { include_usage: true }, 'openai-responses': { store: false } });
    expect(warnForeignExtensions(request, 'anthropic-messages')).toEqual([]);
  });
});
