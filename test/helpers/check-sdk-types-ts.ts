import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { ClientSample } from './client-samples.js';

/**
 * The TypeScript SDKs' type of each kind of sample. Gemini has none here: @google/genai's response
 * is a class (with getters) and its enums are TypeScript enums, which no JSON literal matches; the
 * Python check covers it.
 */
const SDK_TYPES: Record<string, string> = {
  'openai-chat/response': 'OpenAI.ChatCompletion',
  'openai-chat/chunk': 'OpenAI.ChatCompletionChunk',
  'openai-chat/error': '{ error: OpenAI.ErrorObject }',
  'openai-responses/response': 'OpenAI.Responses.Response',
  'openai-responses/event': 'OpenAI.Responses.ResponseStreamEvent',
  'openai-responses/error': '{ error: OpenAI.ErrorObject }',
  'anthropic-messages/response': 'Anthropic.Message',
  'anthropic-messages/event': 'Anthropic.RawMessageStreamEvent',
  'anthropic-messages/error': 'Anthropic.ErrorResponse',
  'openai/model-list': "{ object: 'list'; data: OpenAI.Model[] }",
  'openai/model': 'OpenAI.Model',
  'anthropic/model-list': '{ data: Anthropic.ModelInfo[]; has_more: boolean; first_id: string | null; last_id: string | null }',
  'anthropic/model': 'Anthropic.ModelInfo',
};

/**
 * An SDK type as the wire holds it. A field typed `T | null` may be absent: the SDKs' types mark
 * every field of a response as present, but the APIs themselves leave most nullable ones out
 * (Anthropic's `container`, `stop_details`, a text block's `citations`) and the Python SDKs model
 * them as optional. An optional field may be null, as the APIs send it (`system_fingerprint`,
 * a Response's `user`). Fields an SDK does not know are allowed (a vendor's extras, `reasoning_content`).
 * Two required fields are left out: `output_text`, which the OpenAI SDK computes on the Response it
 * returns, and a tool_use block's `caller`, which only @anthropic-ai/sdk's types require (anthropic's
 * Python model has it optional, and older Anthropic recordings lack it): the gateway writes it as
 * the upstream gave it and does not invent one, so Anthropic bodies survive decode → encode → decode.
 */
const WIRE_TYPE = `type Wire<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends Array<infer Item>
    ? Array<Wire<Item>>
    : T extends object
      ? { [key: string]: unknown } & { [K in keyof T as Loose<T, K> extends true ? K : never]?: Wire<T[K]> | null } & {
          [K in keyof T as Loose<T, K> extends true ? never : K]: Wire<T[K]>;
        }
      : T;
type Loose<T, K extends keyof T> = K extends 'output_text' | 'caller' ? true : null extends T[K] ? true : undefined extends T[K] ? true : false;`;

/** A JSON value as the exact type of its literal: arrays as tuples, strings and numbers as literals. */
function typeOfJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(typeOfJson).join(', ')}]`;
  const fields = Object.entries(value as Record<string, unknown>).map(([key, field]) => `${JSON.stringify(key)}: ${typeOfJson(field)}`);
  return `{ ${fields.join('; ')} }`;
}

/**
 * Type-checks samples against the installed TypeScript SDKs' types, in memory: each becomes a
 * declared constant of its exact JSON type assigned to the SDK type. A declared value is not a fresh
 * literal, so fields the SDK does not know pass (a vendor's extras, `reasoning_content`), while a
 * missing required field (`x: T | null` included, which Python's models default) or a wrong type fails.
 */
export function checkSamplesAgainstTypeScriptSdks(samples: ClientSample[]): { checked: number; failures: Array<{ label: string; kind: string; error: string }> } {
  const lines = ["import type OpenAI from 'openai';", "import type Anthropic from '@anthropic-ai/sdk';", ...WIRE_TYPE.split('\n')];
  const labelOfLine = new Map<number, ClientSample>();
  let checked = 0;
  for (const sample of samples) {
    const type = SDK_TYPES[sample.kind];
    // `ping` is no RawMessageStreamEvent: the SDK's stream skips it by name.
    if (!type || (sample.kind === 'anthropic-messages/event' && (sample.value as { type: string }).type === 'ping')) continue;
    lines.push(`declare const sample${checked}: ${typeOfJson(sample.value)};`);
    lines.push(`export const checked${checked}: Wire<${type}> = sample${checked};`);
    labelOfLine.set(lines.length - 1, sample).set(lines.length, sample);
    checked += 1;
  }
  // A file that is never written: it sits in test/ only so that the SDK packages resolve from it.
  const fileName = fileURLToPath(new URL('../sdk-samples.virtual.ts', import.meta.url));
  const text = lines.join('\n');
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, noEmit: true, types: ['node'] };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === fileName ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  const failures = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    const sample = labelOfLine.get(line);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    return { label: sample?.label ?? `line ${line}`, kind: sample?.kind ?? '', error: message.length > 1500 ? `${message.slice(0, 1500)}…` : message };
  });
  return { checked, failures };
}
