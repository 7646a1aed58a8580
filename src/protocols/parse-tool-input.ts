/**
 * Tool arguments are JSON text in the core (OpenAI and Responses send strings); Anthropic and
 * Gemini want an object. Text that is not a JSON object is wrapped so nothing is lost.
 */
export function parseToolInputObject(input: string): Record<string, unknown> {
  if (input.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(input);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return { input: value };
  } catch {
    return { input };
  }
}
