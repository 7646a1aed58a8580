import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashRequestBody, hashRequestBodyText, isRequestBodyHash } from './hash-request-body.js';

/** sha256 of a canonical string written by hand, first 16 hex characters: independent of the code. */
function expectedHash(canonicalText: string): string {
  return createHash('sha256').update(canonicalText, 'utf8').digest('hex').slice(0, 16);
}

describe('hashRequestBody', () => {
  it('matches vectors computed once with `printf %s <canonical> | sha256sum`', () => {
    expect(hashRequestBody({ a: 1, b: [2, 1] })).toBe('e9d26fb0100c3f9e');
    expect(hashRequestBody({ a: 1, b: [1, 2] })).toBe('8baa73198470c7bb');
    expect(hashRequestBody({ model: 'claude-x', max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] })).toBe('b4958a563839742f');
    // Non-ASCII stays literal UTF-8; numbers use the ECMAScript form (1e+21, 0.000001).
    expect(hashRequestBody({ c: 0.000001, b: 1e21, a: 'é€😀' })).toBe('a21baca52c943716');
  });

  it('hashes the RFC 8785 canonical form (keys sorted by UTF-16 code units)', () => {
    // The key-sorting example of RFC 8785 §3.2.3, canonical form written by hand.
    const body = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const canonical = '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(hashRequestBody(body)).toBe(expectedHash(canonical));
    expect(hashRequestBody({ nested: { z: null, y: [true, false, { b: 2, a: 1 }] }, empty: {} })).toBe(
      expectedHash('{"empty":{},"nested":{"y":[true,false,{"a":1,"b":2}],"z":null}}'),
    );
  });

  it('ignores whitespace, indentation, line breaks and key order', () => {
    const compact = '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}';
    const reformatted = '{\n  "stream" : true,\r\n\t"messages": [ { "content": "hi", "role": "user" } ],\n  "model": "m"\n}\n';
    expect(hashRequestBodyText(reformatted)).toBe(hashRequestBodyText(compact));
    expect(hashRequestBodyText(compact)).toBe(expectedHash('{"messages":[{"content":"hi","role":"user"}],"model":"m","stream":true}'));
  });

  it('changes with a value, the array order, an added field and a missing field', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }], temperature: 1 };
    const baseHash = hashRequestBody(base);
    const variants = [
      { ...base, temperature: 0.5 },
      { ...base, temperature: '1' },
      { ...base, messages: [...base.messages].reverse() },
      { ...base, stream: false },
      { model: base.model, messages: base.messages },
      { ...base, messages: [{ role: 'user', content: 'a ' }, base.messages[1]] },
    ];
    const hashes = variants.map(hashRequestBody);
    for (const hash of hashes) expect(hash).not.toBe(baseHash);
    expect(new Set(hashes).size).toBe(variants.length);
  });

  it('is 16 lowercase hex characters', () => {
    const hash = hashRequestBody({ x: 'y' });
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(isRequestBodyHash(hash)).toBe(true);
    expect(isRequestBodyHash(hash.toUpperCase())).toBe(false);
  });

  it('throws on text that is not JSON and on values without a JSON form', () => {
    expect(() => hashRequestBodyText('{"a":')).toThrow(SyntaxError);
    expect(() => hashRequestBody(undefined)).toThrow(TypeError);
  });
});
