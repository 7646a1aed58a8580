/** A text cut in (up to) three pieces, so that every answer streams as several deltas. */
export function pieces(text: string): string[] {
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter((piece) => piece !== '');
}

/** One SSE record; `event` null writes a `data:` line only (OpenAI Chat, Gemini). */
export function sse(event: string | null, data: unknown): string {
  return `${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
