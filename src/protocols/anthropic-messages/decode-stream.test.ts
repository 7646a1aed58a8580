import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssistantPart } from '../../core/content-part.js';
import { collectStreamParts } from '../../core/collect-stream.js';
import type { FinishReason } from '../../core/finish-reason.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { createAnthropicMessagesStreamDecoder } from './decode-stream.js';
import { decodeSseText } from '../decode-sse-text.js';

const FIXTURES = new URL('../../../test/fixtures/anthropic-messages/', import.meta.url);

function decodeSse(text: string | Uint8Array): StreamPart[] {
  return decodeSseText(text, createAnthropicMessagesStreamDecoder());
}

/** The collected response, with the upstream's own usage object left out (checked on its own below). */
function collectFixture(name: string): GenerateResponse {
  const response = collectStreamParts(decodeSse(readFileSync(new URL(name, FIXTURES))));
  return { ...response, usage: { input: response.usage.input, output: response.usage.output } };
}

const ORIGIN = { 'anthropic-messages': {} };
const CALLER_DIRECT = { 'anthropic-messages': { caller: { type: 'direct' } } };
const END_TURN: FinishReason = { unified: 'stop', raw: 'end_turn' };
const TOOL_USE: FinishReason = { unified: 'tool-calls', raw: 'tool_use' };

const text = (value: string): AssistantPart => ({ type: 'text', text: value });
const thinking = (value: string, signature: string): AssistantPart => ({ type: 'reasoning', text: value, signature, protocolMetadata: ORIGIN });
const redacted = (data: string): AssistantPart => ({ type: 'reasoning', text: '', redactedData: data, protocolMetadata: ORIGIN });
const toolCall = (id: string, name: string, input: string, protocolMetadata?: AssistantPart['protocolMetadata']): AssistantPart => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: name,
  input,
  ...(protocolMetadata && { protocolMetadata }),
});
function usage(counts: { noCache: number; cacheRead: number; cacheWrite: number; output: number; reasoning?: number }): Usage {
  return {
    input: { total: counts.noCache + counts.cacheRead + counts.cacheWrite, noCache: counts.noCache, cacheRead: counts.cacheRead, cacheWrite: counts.cacheWrite },
    output: {
      total: counts.output,
      ...(counts.reasoning !== undefined && { reasoning: counts.reasoning, text: counts.output - counts.reasoning }),
    },
  };
}

interface Expected {
  id: string;
  model: string;
  content: AssistantPart[];
  finishReason: FinishReason;
  usage: Usage;
}

/** Every recorded stream (fixtures/README.md), with what it says, read off the fixture. */
const EXPECTED: Array<[string, Expected]> = [
  [
    'cache-read-stream.sse',
    {
      id: 'msg_01XQRA3bs4SB4yTBMwD3dbUi',
      model: 'claude-3-5-sonnet-20240620',
      content: [
        text("Here are concise summaries of the three articles:\n\n1. OpenLLMetry: New open-source library extending OpenTelemetry with LLM functionality. Key features include LLM-specific metrics/traces, integration with existing setups, and support for popular LLM frameworks. Aims to provide deeper insights into AI model performance in applications.\n\n2. Major LLM providers introduce prompt caching to improve speed and reduce costs. Benefits include faster response times, lower computational costs, and improved scalability. Particularly useful for applications with repetitive prompts like chatbots and content moderation. Expected to impact AI industry by enabling wider adoption and new application types.\n\n3. Importance of unit testing in software development:\n- Catches bugs early\n- Saves time and money\n- Improves code quality\n- Facilitates refactoring\n- Serves as documentation\n- Enhances collaboration\nThe post emphasizes that unit testing is crucial for professional software development and pays off in the long run."),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 4, cacheRead: 1165, cacheWrite: 0, output: 221 }),
    },
  ],
  [
    'parallel-tool-calls-stream.sse',
    {
      id: 'msg_0138UNF3YbNp49KkqZtUBWqz',
      model: 'claude-3-5-sonnet-20240620',
      content: [
        text("Certainly! I can help you with that information. To get the weather and current time in San Francisco, I'll need to use two separate functions. Let me fetch that data for you."),
        toolCall("toolu_014x5X91kx3fvdhpLvwXZWE2", "get_weather", "{\"location\": \"San Francisco, CA\", \"unit\": \"celsius\"}"),
        toolCall("toolu_0121kXsENLvoDZ72LCuAnCCz", "get_time", "{\"timezone\": \"America/Los_Angeles\"}"),
      ],
      finishReason: TOOL_USE,
      usage: usage({ noCache: 506, cacheRead: 0, cacheWrite: 0, output: 153 }),
    },
  ],
  [
    'parallel-tool-calls-whole-args-stream.sse',
    {
      id: 'msg_01V2noLbAb2NgKnjaNw6Cn3w',
      model: 'claude-haiku-4-5-20251001',
      content: [
        toolCall("toolu_01LtHJmixrs9NcWQkK8hu8hj", "pelican_name_generator", "{}", CALLER_DIRECT),
        toolCall("toolu_01N8a4jWyf116qKTMqKKmjyt", "pelican_name_generator", "{}", CALLER_DIRECT),
      ],
      finishReason: TOOL_USE,
      usage: usage({ noCache: 542, cacheRead: 0, cacheWrite: 0, output: 62 }),
    },
  ],
  [
    'redacted-thinking-stream.sse',
    {
      id: 'msg_018XZkwvj9asBiffg3fXt88s',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        redacted("EqkECkYIBxgCKkA8AZ4noDfV5VcOJe/p3JTRB6Xz5297mrWhl3MbHSXDKTMfuB/Z52U2teiWWTN0gg4eQ4bGS9TPilFX/xWTIq9HEgyOmstSPriNwyn1G7AaDC51r0hQ062qEd55IiIwYQj3Z3MSBBv0bSVdXi60LEHDvC7tzzmpQfw5Hb6R9rtyOz/6vC/xPw9/E1mUqfBqKpADO2HS2QlE/CnuzR901nZOn0TOw7kEXwH7kg30c85b9W7iKALgEejY9sELMBdPyIZNlTgKqNOKtY3R/aV5rGIRPTHh2Wh9Ijmqsf/TT7i//Z+InaYTo6f/fxF8R0vFXMRPOBME4XIscb05HcNhh4c9FDkpqQGYKaq31IR1NNwPWA0BsvdDz7SIo1nfx4H+X0qKKqqegKnQ3ynaXiD5ydT1C4U7fku4ftgF0LGwIk4PwXBE+4BP0DcKr1HV3cn7YSyNakBSDTvRJMKcXW6hl7X3w2a4//sxjC1Cjq0uzkIHkhzRWirN0OSXt+g3m6b1ex0wGmSyuO17Ak6kgVBpxwPugtrqsflG0oujFem44hecXJ9LQNssPf4RSlcydiG8EXp/XLGTe0YfHbe3kJagkowSH/Dm6ErXBiVs7249brncyY8WA+7MOoqIM82YIU095B9frCqDJDUWnN84VwOszRrcaywmpJXZO4aeQLMC1kXD5Wabu+O/00tD/X67EWkkWuR0AhDIXXjpot45vnBd4ewJ/hgB"),
        redacted("EtgBCkYIBxgCKkDQfGkwzflEJP5asG3oQfJXcTwJLoRznn8CmuczWCsJ36dv93X9H0NCeaJRbi5BrCA2DyMgFnRKRuzZx8VTv5axEgwkFmcHJk8BSiZMZRQaDDYv2KZPfbFgRa2QjyIwm47f5YYsSK9CT/oh/WWpU1HJJVHr8lrC6HG1ItRdtMvYQYmEGy+KhyfcIACfbssVKkDGv/NKqNMOAcu0bd66gJ2+R1R0PX11Jxn2Nd1JtZqkxx7vMT/PXtHDhm9jkDZ2k/6RjRRFuab/DBV3yRYdZ1J0GAE="),
        text("I notice that you've sent what appears to be some kind of test string or command. I don't have any special \"magic string\" triggers or backdoor commands that would expose internal systems or change my behavior.\n\nI'm Claude, an AI assistant created by Anthropic to be helpful, harmless, and honest. How can I assist you today with a legitimate task or question?"),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 92, cacheRead: 0, cacheWrite: 0, output: 189 }),
    },
  ],
  [
    'server-tool-code-execution-stream.sse',
    {
      id: 'msg_01Js8aWE7YbmiaUPneGiCskE',
      model: 'claude-sonnet-4-6',
      content: [
        thinking("Let me calculate this mathematical expression.", "EusBClsIDRgCKkBpzetW9oKOZtFP6IeFJJr3gnQBXqdZrYcRnwTLcVuC/mkNQXFCRtvXzgnEVf7l5fFR7h3ot66yltYQokOJgU0XMhFjbGF1ZGUtc29ubmV0LTQtNjgAEgx4VA49Y9x4euFn/C8aDLaPUE1i8unro8wUZyIwTVsbnme/ZlJjB/k0sJpLe/6Hhr1hiJBEwIautRYb9wRO69nCOmte8rf2JIlb3WN2Kj5V5cgiQPXU7/dckGIBOjC3LbVg4fl1yJKZ6A9eiNDAfvI1a3el8ptl54928QUlCPHT6QRNK5dDomrp4RcinBgB"),
        text("I'll calculate that expression for you right away!"),
        text("Following the standard **order of operations (PEMDAS/BODMAS)** — multiplication is performed before addition and subtraction — here's the breakdown:\n\n| Step | Operation | Result |\n|------|-----------|--------|\n| 1️⃣ | `6544 × 65464` | `428,394,416` |\n| 2️⃣ | `65465 - 428,394,416` | `-428,328,951` |\n| 3️⃣ | `-428,328,951 - 6` | `-428,328,957` |\n| 4️⃣ | `-428,328,957 + 1.02255` | **`-428,328,955.97745`** |\n\n### ✅ Final Answer: **-428,330,955.97745**"),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 4714, cacheRead: 0, cacheWrite: 0, output: 304 }),
    },
  ],
  [
    'server-tool-web-search-stream.sse',
    {
      id: 'msg_01TRpkkgb2QsnyjsGSVdRtGr',
      model: 'claude-opus-4-1-20250805',
      content: [
        text("Based on the search results, here's the current weather in San Francisco:\n\n"),
        text("Today (November 15, 2025) in San Francisco is overcast with a slight chance of a rain shower, with a high of 63°F."),
        text(" "),
        text("Winds are from the west at 10 to 15 mph."),
        text("\n\n"),
        text("Tonight, it will be cloudy with periods of rain, with a low around 55°F and southwest winds at 10 to 15 mph. The chance of rain is 80%, with rainfall around a quarter of an inch expected."),
        text("\n\n"),
        text("Current conditions show partly cloudy skies with 77% humidity and a dew point of 53°F, with visibility at 9 miles."),
        text("\n\nThe weekend forecast indicates continued rain, with "),
        text("a Level 1 storm system bringing periods of rain this weekend."),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 10423, cacheRead: 0, cacheWrite: 0, output: 341 }),
    },
  ],
  [
    'stop-sequence-stream.sse',
    {
      id: 'msg_01KozUDYHvRtgs3NLgG7jzN9',
      model: 'claude-haiku-4-5-20251001',
      content: [
        text("\ndef pelican():\n    return \"A large waterbird with a long bill and a throat pouch for catching fish.\"\n"),
      ],
      finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: '```' },
      usage: usage({ noCache: 16, cacheRead: 0, cacheWrite: 0, output: 28 }),
    },
  ],
  [
    'structured-output-stream.sse',
    {
      id: 'msg_01RiZf5w2bQ3qPCnAETmsdqt',
      model: 'claude-opus-4-6',
      content: [
        text("{\"name\":\"Biscuit\",\"age\":4,\"bio\":\"Biscuit is a golden retriever with a heart of pure sunshine. He loves fetching tennis balls, cuddling on the couch during thunderstorms, and greeting every single person he meets with an enthusiastic tail wag. He knows twelve tricks, but his favorite is 'shake,' because it means he gets to hold your hand. Biscuit volunteers as a therapy dog at the local children's hospital every Saturday and has never met a stranger in his life.\"}"),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 231, cacheRead: 0, cacheWrite: 0, output: 118 }),
    },
  ],
  [
    'text-stream.sse',
    {
      id: 'msg_018E1hg8GoVTGEKQY3ovMcSJ',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        text("2"),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 20, cacheRead: 0, cacheWrite: 0, output: 5 }),
    },
  ],
  [
    'thinking-stream.sse',
    {
      id: 'msg_01ALwQ87pTS7hH1PjSdC9wJD',
      model: 'claude-sonnet-4-20250514',
      content: [
        thinking("This is a straightforward question about pedestrian safety. I should provide clear, helpful advice about how to safely cross a street. This is basic safety information that could help prevent accidents.", "EvMCCkYICxgCKkCHP2cSuEdcJK/0rFwqES/ecn+VurRpNTwI4XNyM0vnNfGsc9OmE8YYHauwBZ/uaRpmlEn2I4/kszHlcpptO82JEgyRMSbPkJYaegxYF3AaDHZbSm9EzZ6CM+YtliIw3iNVP/ilYrfoneo8S2+ad/5xSC62nKbk6joLtKmqXgXwYFJRpjIUjM2V7EGReOPRKtoBKfNHVmdNf7SeMhHalX/ObSeJ1G/NjDyGQAsDjyHGd7uY1r5gAIn3Cpdv5r+gHYJmWT+w2uiKZsBDRoSf4O3Km0l752EhPD4InEhqpCKyqhbUZ3dt5+JVKQHk2iyTBhQMB/XBYgZTstIpRqQRXU5ypcrydgnqj3mD1G9C7YC0ZTCNvFluAx0OL8q+cQwufgfqKquLEf2+XMYzhx9jYkVFEpnf/s1nx6gNBATKfF3Dmrs2r4tWu2QJB+FjlRuDp/8dxUxgJbmyhGxb7XsYeb1vgb7wwzDvP/UhjfQYAQ=="),
        text("Here are the basic steps for safely crossing the street:\n\n**At intersections with traffic lights:**\n- Wait for the pedestrian \"Walk\" signal\n- Look both ways before stepping into the street\n- Make eye contact with drivers when possible\n- Stay alert for turning vehicles\n\n**At intersections without signals:**\n- Use crosswalks when available\n- Stop at the curb and look left, right, then left again\n- Wait for a clear gap in traffic\n- Walk briskly but don't run\n- Keep looking for traffic as you cross\n\n**General safety tips:**\n- Put away phones and remove headphones\n- Wear bright or reflective clothing in low light\n- Never assume drivers see you\n- Avoid crossing between parked cars\n- Walk facing traffic when there's no sidewalk\n\n**In busy urban areas:**\n- Follow pedestrian signals strictly\n- Be extra cautious of cyclists in bike lanes\n- Watch for buses and large vehicles with blind spots\n\nThe key is to be visible, alert, and predictable in your movements. Always prioritize safety over speed when crossing streets."),
      ],
      finishReason: END_TURN,
      usage: usage({ noCache: 43, cacheRead: 0, cacheWrite: 0, output: 282 }),
    },
  ],
  [
    'thinking-tool-call-stream.sse',
    {
      id: 'msg_01JdU4xqNHXL9QCFWkwCDKGr',
      model: 'claude-haiku-4-5-20251001',
      content: [
        thinking("The user wants me to:\n1. Use the fixed_version tool\n2. Tell them the version\n3. Make a short joke about it\n\nLet me first call the fixed_version tool to see what version it returns.", "EoQDCm0IDhgCKkCDzGs2kL2PgnDCZU/nM2wG2P1VIXCRHVnhDDzBQxNF1fl4QBXEKLxRItNJ2MwFdW9eeZPhsxSQIxD54cv3zs29MhljbGF1ZGUtaGFpa3UtNC01LTIwMjUxMDAxOABCCHRoaW5raW5nEgy/OWlwTmmqUjC6L70aDJ4P0R5NfuIe9U5zAiIwCxPduXS2UxCNxJCee3i91qK3cAyAgxCjL2wkQ5UD56iX1hXGOyuNaiH5k+dF5OCQKsQBxiAo+NjC61hV8nRYtaiP+C4inOcuMKuTG9Z1rysxTXkKBTl3oMiOlnEPHHPpKpg4sYF2G5VoTg8JTon20hdZw4GfTEVupnU1qAmnMqyAgke9SoV7HBW/PyA/FxL/q33xJ2gKFiD+BsgI9Z0koMmFKCvm2MoYE6u+ONEwKdFQXL1FKRW6t/bYbJGrLJLwxilsL82h9j4xjggjMn8Npvpn+zsrDPW/8PuLd4Pu+/EsjoneYwyxQQtUVgzhVGhhANWRjSBwUxgB"),
        toolCall("toolu_01825dXWLSoJwCst1qTsiWdb", "fixed_version", "{}", CALLER_DIRECT),
      ],
      finishReason: TOOL_USE,
      usage: usage({ noCache: 598, cacheRead: 0, cacheWrite: 0, output: 92, reasoning: 53 }),
    },
  ],
  [
    'tool-call-stream.sse',
    {
      id: 'msg_01CD3XaZfhNabxRt1SG5ybtK',
      model: 'claude-haiku-4-5-20251001',
      content: [
        toolCall("toolu_019Zvehfe1XQWweT1pm7okyt", "weather", "{\"location\": \"San Francisco\"}"),
      ],
      finishReason: TOOL_USE,
      usage: usage({ noCache: 843, cacheRead: 0, cacheWrite: 0, output: 28 }),
    },
  ],
];

describe('createAnthropicMessagesStreamDecoder', () => {
  it.each(EXPECTED)('decodes %s', (name, expected) => {
    expect(collectFixture(name)).toEqual({
      id: expected.id,
      model: expected.model,
      choices: [{ index: 0, content: expected.content, finishReason: expected.finishReason }],
      usage: expected.usage,
    });
  });

  it('emits start with the input usage, the block parts, and the finish at message_stop', () => {
    const parts = decodeSse(readFileSync(new URL('text-stream.sse', FIXTURES)));
    const startUsage = usage({ noCache: 20, cacheRead: 0, cacheWrite: 0, output: 1 });
    expect(parts).toEqual([
      {
        type: 'start',
        id: 'msg_018E1hg8GoVTGEKQY3ovMcSJ',
        model: 'claude-sonnet-4-5-20250929',
        usage: { ...startUsage, raw: expect.objectContaining({ input_tokens: 20, output_tokens: 1 }) },
      },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: '2' },
      { type: 'text-end', id: '0' },
      { type: 'finish', finishReason: END_TURN, usage: { ...usage({ noCache: 20, cacheRead: 0, cacheWrite: 0, output: 5 }), raw: expect.any(Object) } },
    ]);
  });

  it('keeps the cumulative usage object of message_delta over message_start as the raw usage', () => {
    const parts = decodeSse(readFileSync(new URL('cache-read-stream.sse', FIXTURES)));
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      usage: { raw: { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 1165, output_tokens: 221 } },
    });
  });

  it('streams tool input fragments and ends each tool with the complete call', () => {
    const parts = decodeSse(readFileSync(new URL('tool-call-stream.sse', FIXTURES)));
    expect(parts.filter((part) => part.type.startsWith('tool-'))).toEqual([
      { type: 'tool-input-start', id: 'toolu_019Zvehfe1XQWweT1pm7okyt', toolName: 'weather' },
      { type: 'tool-input-delta', id: 'toolu_019Zvehfe1XQWweT1pm7okyt', delta: '{"location": "San Francisco' },
      { type: 'tool-input-delta', id: 'toolu_019Zvehfe1XQWweT1pm7okyt', delta: '"}' },
      { type: 'tool-input-end', id: 'toolu_019Zvehfe1XQWweT1pm7okyt' },
      { type: 'tool-call', toolCallId: 'toolu_019Zvehfe1XQWweT1pm7okyt', toolName: 'weather', input: '{"location": "San Francisco"}' },
    ]);
  });

  it('ends a tool whose input came in hundreds of fragments with all of them, in order', () => {
    const fragments = Array.from({ length: 300 }, (_, index) => (index === 0 ? '{"lines":[' : `${index},`));
    const events = [
      { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 0 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'write', input: {} } },
      ...fragments.map((partial_json) => ({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } })),
      { type: 'content_block_stop', index: 0 },
    ];
    const parts = decodeSse(events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
    expect(parts.find((part) => part.type === 'tool-call')).toEqual({ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'write', input: fragments.join('') });
  });

  it('skips on purpose pings, citations_delta, server tool blocks and unknown events', () => {
    // The web search stream holds server_tool_use and web_search_tool_result blocks (indexes 0 and 1)
    // and text blocks whose citations arrive as citations_delta.
    const parts = decodeSse(readFileSync(new URL('server-tool-web-search-stream.sse', FIXTURES)));
    expect(new Set(parts.map((part) => part.type))).toEqual(new Set(['start', 'text-start', 'text-delta', 'text-end', 'finish']));
    expect(parts.find((part) => part.type === 'text-start')).toEqual({ type: 'text-start', id: '2' });
    const unknown = decodeSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":1}}}\n\n' +
        'event: content_block_sparkle\ndata: {"type":"content_block_sparkle","index":0}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(unknown.map((part) => part.type)).toEqual(['start', 'finish']);
  });

  it('ends a stream cut before message_stop with an error part, never a finish, keeping the text so far', () => {
    const parts = decodeSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":7,"output_tokens":1}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hal"}}\n\n',
    );
    expect(parts.map((part) => part.type)).toEqual(['start', 'text-start', 'text-delta', 'error']);
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_error', status: 502, detailCode: 'upstream_ended_early' } });
  });

  it('ends the stream with an error part at an event that is not JSON (a cut event)', () => {
    const parts = decodeSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":7}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_st\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(parts.map((part) => part.type)).toEqual(['start', 'error']);
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { detailCode: 'upstream_invalid_event' } });
  });

  it('turns an error event into an error part and decodes nothing after it', () => {
    const parts = decodeSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":7}}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(parts.map((part) => part.type)).toEqual(['start', 'error']);
    const error = parts[1].type === 'error' ? parts[1].error : undefined;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'overloaded', status: 529, detailCode: 'overloaded_error', message: 'Overloaded' });
  });
});
