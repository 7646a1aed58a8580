import { describe, expect, it } from 'vitest';
import { prepareGeminiPassthrough } from './prepare-passthrough.js';

describe('prepareGeminiPassthrough', () => {
  const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

  it('puts the upstream model in the path and sends the body byte for byte (no body of its own)', () => {
    const prepared = prepareGeminiPassthrough(body, { model: 'gemini-2.5-flash', stream: false, search: '' });
    expect(prepared).toEqual({ path: '/v1beta/models/gemini-2.5-flash:generateContent' });
  });

  it('streams with alt=sse, keeps other query parameters and never forwards the client key', () => {
    expect(prepareGeminiPassthrough(body, { model: 'gemini-2.5-flash', stream: true, search: '?key=client-secret&alt=sse&$fields=candidates' }).path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&%24fields=candidates',
    );
    expect(prepareGeminiPassthrough(body, { model: 'tunedModels/mine', stream: false, search: '?key=k' }).path).toBe('/v1beta/tunedModels/mine:generateContent');
  });
});
