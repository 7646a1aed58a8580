import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssistantPart } from '../../core/content-part.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { Usage } from '../../core/usage.js';
import type { ResponseContext } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { encodeAnthropicMessagesResponse } from './encode-response.js';

const FIXTURES = new URL('../../../test/fixtures/anthropic-messages/', import.meta.url);
const readFixture = (name: string): JsonObject => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as JsonObject;

/** The response without the upstream's own usage object (the converted counts are what matter). */
function withoutRawUsage(response: GenerateResponse): GenerateResponse {
  return { ...response, usage: { input: response.usage.input, output: response.usage.output } };
}

const usage = (noCache: number, cacheRead: number, cacheWrite: number, output: number): Usage => ({
  input: { total: noCache + cacheRead + cacheWrite, noCache, cacheRead, cacheWrite },
  output: { total: output },
});
const text = (value: string): AssistantPart => ({ type: 'text', text: value });
const toolCall = (id: string, name: string, input: string): AssistantPart => ({ type: 'tool-call', toolCallId: id, toolName: name, input });
const END_TURN = { unified: 'stop', raw: 'end_turn' } as const;
const TOOL_USE = { unified: 'tool-calls', raw: 'tool_use' } as const;

const STRUCTURED_OUTPUT_TEXT =
  "{\"recipe\":{\"name\":\"Classic Lasagna\",\"ingredients\":[{\"name\":\"lasagna noodles\",\"amount\":\"12 sheets\"},{\"name\":\"ground beef\",\"amount\":\"1 pound\"},{\"name\":\"Italian sausage\",\"amount\":\"1/2 pound\"},{\"name\":\"onion\",\"amount\":\"1 medium, diced\"},{\"name\":\"garlic\",\"amount\":\"3 cloves, minced\"},{\"name\":\"crushed tomatoes\",\"amount\":\"28 oz can\"},{\"name\":\"tomato paste\",\"amount\":\"6 oz can\"},{\"name\":\"water\",\"amount\":\"1/2 cup\"},{\"name\":\"sugar\",\"amount\":\"2 tablespoons\"},{\"name\":\"dried basil\",\"amount\":\"1 1/2 teaspoons\"},{\"name\":\"Italian seasoning\",\"amount\":\"1 teaspoon\"},{\"name\":\"salt\",\"amount\":\"1 teaspoon\"},{\"name\":\"black pepper\",\"amount\":\"1/2 teaspoon\"},{\"name\":\"ricotta cheese\",\"amount\":\"15 oz\"},{\"name\":\"egg\",\"amount\":\"1 large\"},{\"name\":\"fresh parsley\",\"amount\":\"2 tablespoons, chopped\"},{\"name\":\"mozzarella cheese\",\"amount\":\"3 cups, shredded\"},{\"name\":\"parmesan cheese\",\"amount\":\"3/4 cup, grated\"}],\"steps\":[\"Cook lasagna noodles according to package directions, drain and set aside\",\"In a large skillet, cook ground beef, sausage, onion, and garlic over medium heat until meat is browned, drain excess fat\",\"Add crushed tomatoes, tomato paste, water, sugar, basil, Italian seasoning, salt, and pepper to the meat mixture, simmer for 30 minutes, stirring occasionally\",\"In a bowl, combine ricotta cheese, egg, and parsley, mix well\",\"Preheat oven to 375°F (190°C)\",\"Spread 1 cup of meat sauce in the bottom of a 9x13 inch baking dish\",\"Layer 4 lasagna noodles over the sauce\",\"Spread half of the ricotta mixture over the noodles\",\"Sprinkle with 1 cup mozzarella and 1/4 cup parmesan cheese\",\"Top with 1 1/2 cups meat sauce\",\"Repeat layers once more: 4 noodles, remaining ricotta mixture, 1 cup mozzarella, 1/4 cup parmesan, 1 1/2 cups meat sauce\",\"Add final layer of 4 noodles, remaining meat sauce, remaining mozzarella and parmesan cheese\",\"Cover with aluminum foil and bake for 25 minutes\",\"Remove foil and bake an additional 25 minutes until cheese is golden and bubbly\",\"Let stand for 15 minutes before serving\"]}}";
const THINKING_TEXT =
  "I need to find all roots of this cubic polynomial and verify them. The Rational Root Theorem suggests checking factors of 6, and I can confirm that 1, 2, and 3 are indeed roots. I'll use synthetic division to factor it as (x-1)(x-2)(x-3), then verify by expanding and confirm this accounts for all roots since a degree 3 polynomial has exactly 3 roots.";
const THINKING_SIGNATURE =
  "CAISqwQKhwEIEBgCKkAciZInI2gcLrwOU5o9XFlIxHw9HaLIY6V9wHoK2E0w9TFrU5619C4CclxQW/p2HnHQuZNnVQyUxEfWomyE2b1cMg1jbGF1ZGUtb3B1cy01OAFCCHRoaW5raW5nWiQzYjkzYTVkZC03MzAyLTQ4M2YtYWVhZS0zNjIwNzU1NDhhZTESDH+yRc1q0TFaGxqP8RoMhbsE0elIcjL7Oz64IjBZvnLReNK1l69zsogxJrmWBDJnxYY8g1kBtEVbEzOmiaiMV20Hfw/wJyWGuZGlxZoq0AKuTLuUCqYUdsLcwLq8xMstlN1cJ1QCQX0nKWJMr7lAJZfm0B5koVxMGq/lv1gcueRYChwtOB6sArPZUCOGQ5MRdrbeGTCElku9thIfrgJQLcJO7UDobkcVilvXgxpZz/qlZLXJMxkV06BZwfhunTr6LqAmN6Mk3kyjpSd6qejVWiAVnivWverxxiyhZboZjOXdh+QdwyoSR3Oex7tWBaQDEurXSaYFLAjHbeXSs7ieKZfeHv5gKOez1PLKeBVoNBqxCvxbVXK+2/YhQJBZv610Uq7tq/ePGOTB3NH3dM+DrLpCJh/ZypKdGfFkgBoU8pMelL1ItIQ526dsd8G5RMo+KMCTYlGwYih85CrX4VKyS08G77B/v/9bhoGh+/fGjgBYX/M2CopxDG59RuG5bHvgcJX8QJ17THLT+tQgH+UNyStauLcPlIdLrLIq9yWz7dcYAQ==";
const THINKING_ANSWER =
  "## Step 1: Set up the problem\n\nWe want all values of $x$ satisfying\n\n$$f(x) = x^3 - 6x^2 + 11x - 6 = 0.$$\n\n## Step 2: Use the Rational Root Theorem to find candidates\n\nFor a polynomial with integer coefficients $a_nx^n + \\cdots + a_0$, any rational root $p/q$ (in lowest terms) must have $p \\mid a_0$ and $q \\mid a_n$.\n\nHere $a_0 = -6$ and $a_n = 1$, so:\n- $p \\in \\{\\pm1, \\pm2, \\pm3, \\pm6\\}$\n- $q \\in \\{\\pm 1\\}$\n\n**Candidate roots:** $\\pm1, \\pm2, \\pm3, \\pm6$.\n\n## Step 3: Test candidates\n\n$$f(1) = 1 - 6 + 11 - 6 = 0 \\quad \\checkmark$$\n\nSo $x = 1$ is a root, and by the Factor Theorem $(x-1)$ divides $f(x)$.\n\n## Step 4: Divide out the known factor\n\nSynthetic division by $x = 1$:\n\n$$\\begin{array}{c|cccc}\n1 & 1 & -6 & 11 & -6\\\\\n  &   & 1 & -5 & 6\\\\ \\hline\n  & 1 & -5 & 6 & \\boxed{0}\n\\end{array}$$\n\nThe remainder is $0$ (confirming $x=1$ is a root), and the quotient is $x^2 - 5x + 6$. Thus\n\n$$f(x) = (x-1)(x^2 - 5x + 6).$$\n\n## Step 5: Solve the quadratic\n\nFactor directly: we need two numbers with product $6$ and sum $-5$, namely $-2$ and $-3$:\n\n$$x^2 - 5x + 6 = (x-2)(x-3).$$\n\n*(Check with the quadratic formula: $x = \\dfrac{5 \\pm \\sqrt{25-24}}{2} = \\dfrac{5 \\pm 1}{2} = 3, 2.$)*\n\n## Step 6: Complete factorization\n\n$$\\boxed{f(x) = (x-1)(x-2)(x-3)}, \\qquad \\text{roots } x = 1,\\, 2,\\, 3.$$\n\n---\n\n## Proof of correctness\n\n**(a) The factorization is an identity.** Expand:\n\n$$(x-2)(x-3) = x^2 - 5x + 6$$\n\n$$(x-1)(x^2 - 5x + 6) = x^3 - 5x^2 + 6x - x^2 + 5x - 6 = x^3 - 6x^2 + 11x - 6 = f(x). \\;\\checkmark$$\n\nSo the factored form equals the original polynomial for **all** $x$.\n\n**(b) Each value is a root.** Direct substitution:\n\n| $x$ | $x^3$ | $-6x^2$ | $+11x$ | $-6$ | $f(x)$ |\n|---|---|---|---|---|---|\n| $1$ | $1$ | $-6$ | $11$ | $-6$ | $0$ |\n| $2$ | $8$ | $-24$ | $22$ | $-6$ | $0$ |\n| $3$ | $27$ | $-54$ | $33$ | $-6$ | $0$ |\n\n**(c) There are no other roots.** Since $f(x) = (x-1)(x-2)(x-3)$ identically, suppose $f(r) = 0$ for some $r$. Then\n\n$$(r-1)(r-2)(r-3) = 0.$$\n\nBecause $\\mathbb{R}$ (and $\\mathbb{C}$) is an integral domain — a product is zero only if some factor is zero — we must have $r-1=0$, $r-2=0$, or $r-3=0$, i.e. $r \\in \\{1,2,3\\}$.\n\nHence $\\{1,2,3\\}$ is exactly the root set, each root is simple (multiplicity 1), and the count matches the Fundamental Theorem of Algebra's guarantee of 3 roots for a cubic. $\\blacksquare$\n\n---\n\n## Sanity check with Vieta's formulas\n\nFor $x^3 + bx^2 + cx + d$ with roots $r_1,r_2,r_3$:\n\n- Sum: $1+2+3 = 6 = -b = 6$ ✓\n- Pairwise sum: $1\\cdot2 + 1\\cdot3 + 2\\cdot3 = 2+3+6 = 11 = c$ ✓\n- Product: $1\\cdot2\\cdot3 = 6 = -d = 6$ ✓\n\nAll three relations hold, independently confirming the answer.";

/** Every recorded non-stream response (fixtures/README.md), with what it says, read off the fixture. */
const EXPECTED: Array<[string, GenerateResponse]> = [
  [
    'text.json',
    {
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, content: [text("Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?")], finishReason: END_TURN }],
      usage: usage(12, 0, 0, 29),
    },
  ],
  [
    'cache-read-write.json',
    {
      id: 'msg_01KPaKTJSqAKoZri7Ujrny58',
      model: 'claude-sonnet-4-5-20250929',
      choices: [
        {
          index: 0,
          content: [
            text('Python is a beginner-friendly, versatile programming language widely used for web development, data science, machine learning, automation, and scientific computing.'),
          ],
          finishReason: END_TURN,
        },
      ],
      usage: usage(3, 1111, 418, 33),
    },
  ],
  [
    'stop-sequence.json',
    {
      id: 'msg_01376yZQxHcw9pER2Ab2SvQb',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, content: [text('The beautiful city of ')], finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: 'Paris' } }],
      usage: usage(32, 0, 0, 5),
    },
  ],
  [
    'structured-output.json',
    {
      id: 'msg_015rVfxqGkwrrRARo3Uv3C9K',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, content: [text(STRUCTURED_OUTPUT_TEXT)], finishReason: END_TURN }],
      usage: usage(371, 0, 0, 629),
    },
  ],
  [
    'thinking.json',
    {
      id: 'msg_011CdMNhurHSJCxCC2NB7WYc',
      model: 'claude-opus-5',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: THINKING_TEXT, signature: THINKING_SIGNATURE, protocolMetadata: { 'anthropic-messages': {} } },
            text(THINKING_ANSWER),
          ],
          finishReason: END_TURN,
        },
      ],
      usage: { input: { total: 51, noCache: 51, cacheRead: 0, cacheWrite: 0 }, output: { total: 1699, text: 1560, reasoning: 139 } },
    },
  ],
  [
    'tool-call.json',
    {
      id: 'msg_01T8acYgh1ugip1ifUmT4MCU',
      model: 'claude-haiku-4-5-20251001',
      choices: [{ index: 0, content: [toolCall('toolu_01PQjhxo3eirCdKNvCJrKc8f', 'weather', '{"location":"San Francisco"}')], finishReason: TOOL_USE }],
      usage: usage(843, 0, 0, 28),
    },
  ],
  [
    'parallel-tool-calls.json',
    {
      id: 'msg_011S3wxtqL5CVescWqS3zeg2',
      model: 'claude-haiku-4-5-20251001',
      choices: [
        {
          index: 0,
          content: [
            text("I'll help you find out who is the youngest by retrieving information about each family member. I'll retrieve their entity information to compare their ages."),
            toolCall('toolu_0167cfEnoQaPviGdVXA95zcu', 'retrieve_entity_info', '{"name":"Alice"}'),
            toolCall('toolu_01EEe2V5HD1Ac4rKiUR4HD2T', 'retrieve_entity_info', '{"name":"Bob"}'),
            toolCall('toolu_01XFyAjstT3966qvRynZyVPo', 'retrieve_entity_info', '{"name":"Charlie"}'),
            toolCall('toolu_013mnQZbgtK2oe3Mo3XKJsx3', 'retrieve_entity_info', '{"name":"Daisy"}'),
          ],
          finishReason: TOOL_USE,
        },
      ],
      usage: usage(423, 0, 0, 202),
    },
  ],
];

describe('decodeAnthropicMessagesResponse', () => {
  it.each(EXPECTED)('decodes %s', (name, expected) => {
    expect(withoutRawUsage(decodeAnthropicMessagesResponse(readFixture(name)))).toEqual(expected);
  });

  it('keeps the upstream usage object as raw', () => {
    expect(decodeAnthropicMessagesResponse(readFixture('cache-read-write.json')).usage.raw).toEqual(readFixture('cache-read-write.json').usage);
  });

  it.each(EXPECTED.map(([name]) => name))('survives decode → encode → decode unchanged: %s', (name) => {
    const body = readFixture(name);
    const first = decodeAnthropicMessagesResponse(body);
    // With the upstream's own id as request id, the encoded id (msg_<requestId>) is the same.
    const context = { requestId: String(body.id).slice('msg_'.length), created: 0, model: String(body.model), request: {} } as ResponseContext;
    const second = decodeAnthropicMessagesResponse(encodeAnthropicMessagesResponse(first, context));
    expect(withoutRawUsage(second)).toEqual(withoutRawUsage(first));
  });

  it('keeps server tool blocks, stop_details and container in metadata, and puts them back in place', () => {
    const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather' } };
    const searchResult = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };
    const citation = { type: 'web_search_result_location', url: 'https://example.com', title: 'Weather', encrypted_index: 'x', cited_text: 'Rain.' };
    const body = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-1',
      content: [
        { type: 'text', text: 'Let me search.', citations: null },
        serverToolUse,
        searchResult,
        { type: 'text', text: 'Rain.', citations: [citation] },
      ],
      stop_reason: 'refusal',
      stop_sequence: null,
      stop_details: { type: 'refusal', category: 'cyber', explanation: null },
      container: { id: 'container_1', expires_at: '2026-01-01T00:00:00Z' },
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    };
    const response = decodeAnthropicMessagesResponse(body);
    expect(response.choices[0]).toEqual({
      index: 0,
      content: [text('Let me search.'), { type: 'text', text: 'Rain.', protocolMetadata: { 'anthropic-messages': { citations: [citation] } } }],
      finishReason: { unified: 'content-filter', raw: 'refusal' },
    });
    expect(response.usage).toEqual({ input: { total: 10, noCache: 10 }, output: { total: 5 }, raw: body.usage });
    const context = { requestId: '1', created: 0, model: 'claude-opus-4-1', request: {} } as ResponseContext;
    expect(encodeAnthropicMessagesResponse(response, context)).toEqual({
      ...body,
      // `citations: null` is written as no key, as the API does (encode-response.test.ts).
      content: [{ type: 'text', text: 'Let me search.' }, ...body.content.slice(1)],
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('reports a body that is not a message, or a malformed block, as the upstream error it is', () => {
    expect(() => decodeAnthropicMessagesResponse({ type: 'error' })).toThrow(GatewayError);
    expect(() => decodeAnthropicMessagesResponse({ content: [{ type: 'tool_use', id: 'toolu_1' }] })).toThrow(
      expect.objectContaining({ code: 'upstream_error', message: "The upstream returned a malformed message: Missing required parameter: 'content[0].name'." }),
    );
  });
});
