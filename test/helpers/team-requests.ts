import OpenAI from 'openai';
import { pollUntil } from './poll-until.js';

/** The requests the team-mode tests send to instances (docs/team.md), as a client with key KEY. */
export const KEY = 'sk-bob-team';

export function api(url: string, path: string, init: RequestInit = {}) {
  return fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as any,
  }));
}

/** Reads until `done` holds: 150 tries 100 ms apart at most (instances in other processes). */
export const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) => pollUntil(read, done, { tries: 150, intervalMs: 100 });

/** Starts a stream, reads two chunks and goes away: the gateway drains the rest into a record. */
export async function interrupt(url: string, body: OpenAI.Chat.ChatCompletionCreateParamsStreaming): Promise<string> {
  const client = new OpenAI({ apiKey: KEY, baseURL: `${url}/v1`, maxRetries: 0 });
  const { data: stream, response } = await client.chat.completions.create(body).withResponse();
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  await iterator.next();
  stream.controller.abort();
  return response.headers.get('x-request-id')!;
}

