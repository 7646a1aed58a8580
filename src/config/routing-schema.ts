import * as v from 'valibot';

/**
 * The routing settings of the config file (routes, fallback chains, retries, cooldown, key pools,
 * model limits), as users write them; `parse-routing.ts` resolves them.
 */
const described = <Schema extends v.GenericSchema>(schema: Schema, description: string) => v.optional(v.pipe(schema, v.description(description)));
const whole = (min: number, max: number, description: string) => described(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)), description);

const targets = v.union([v.pipe(v.string(), v.minLength(1, 'must not be empty')), v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), v.minLength(1, 'must name at least one target'))]);

export const retryFileSchema = v.strictObject({
  attempts: whole(1, 10, 'Tries of one target, the first included, before the next target (default 1).'),
  onStatus: described(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599))),
    'Upstream statuses tried again, then on the next target (default [408, 429, 500, 502, 503, 504, 529]).',
  ),
  maxWaitMs: whole(0, 600_000, 'The longest retry-after waited for; a longer one moves on to the next target at once (default 20000).'),
});

export const cooldownFileSchema = v.strictObject({
  failures: whole(1, 1000, 'Failed requests in a row (after their retries) that set a provider aside (default 3).'),
  ms: whole(0, 86_400_000, 'How long a provider stays aside while another target can serve (default 30000).'),
});

const headerCondition = v.union([v.string(), v.boolean()]);

export const routeFileSchema = v.strictObject({
  when: v.pipe(
    v.strictObject({
      model: described(v.string(), 'Glob on the requested model name (* any text, ? one character).'),
      protocol: described(v.string(), 'The client protocol: openai-chat, anthropic-messages, openai-responses, gemini.'),
      minInputTokens: whole(0, 100_000_000, 'The whole prompt (system and tools included) has at least this many tokens.'),
      thinking: described(v.boolean(), 'The request asks for reasoning (false: it must not).'),
      images: described(v.boolean(), 'The request holds an image (false: it must not).'),
      tools: described(v.boolean(), 'The request offers tools (false: it must not).'),
      header: described(v.record(v.string(), headerCondition), 'Header name → glob on its value; true: present, false: absent.'),
    }),
    v.description('Conditions, all of which must hold; none: every request.'),
  ),
  to: v.pipe(targets, v.description('An alias, a provider/model, or a list of them tried in order.')),
});

/** `aliases` values: one target or a fallback chain. */
export const aliasTargetsSchema = targets;

/** A provider's `apiKey`: one key or a pool. */
export const apiKeySchema = v.union([v.string(), v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), v.minLength(1, 'must hold at least one key'))]);

/** A provider's `models` entry: an id, or an id with its limits. */
export const modelEntrySchema = v.union([
  v.string(),
  v.strictObject({
    id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
    maxOutputTokens: whole(1, 100_000_000, 'Output tokens the model allows: a request asking more is clamped, with a warning.'),
    contextTokens: whole(1, 100_000_000, 'The model\'s context: a longer prompt goes to the next target, or gets a 400.'),
  }),
]);

export type RetryFile = v.InferOutput<typeof retryFileSchema>;
export type CooldownFile = v.InferOutput<typeof cooldownFileSchema>;
export type RouteFile = v.InferOutput<typeof routeFileSchema>;
export type ModelEntryFile = v.InferOutput<typeof modelEntrySchema>;
