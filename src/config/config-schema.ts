import { z } from 'zod';
import { PROVIDER_PRESETS } from './presets.js';

/**
 * The config file's shape, as users write it: what each setting is, its type and its range. The
 * published JSON Schema (`config.schema.json`, made from this by `npm run build`) lets editors
 * complete and check `config.json`; `parse-config.ts` validates with it, then resolves what the
 * shape cannot say (presets, `$NAME` references, protocol ids, defaults).
 */
const disconnectPolicy = z
  .enum(['drain', 'cancel'])
  .describe('When the client goes away: `drain` reads the upstream to its end into a recovery record (paid APIs), `cancel` stops it (local GPU servers).');

const milliseconds = (max: number, description: string) => z.number().int().min(0).max(max).describe(description);

/** One upstream provider, or the built-in mock models (`"type": "mock"`). */
export const providerFileSchema = z
  .object({
    type: z.string().describe('The protocol the upstream speaks: openai-chat, anthropic-messages, openai-responses, gemini, or mock.'),
    preset: z
      .enum(Object.keys(PROVIDER_PRESETS) as [string, ...string[]])
      .describe('Fills in type, baseURL and the disconnect policy of a well-known upstream.'),
    baseURL: z.string().describe('As the protocol\'s official SDK takes it: OpenAI-style URLs include /v1, Anthropic and Gemini do not.'),
    apiKey: z.string().describe('The upstream key. "$NAME" or "${NAME}" reads the environment variable NAME.'),
    models: z.array(z.string()).describe('Model ids this provider serves; the upstream\'s own list is fetched and added.'),
    headers: z.record(z.string(), z.string()).describe('Extra headers for every upstream request (values may use $NAME).'),
    discoverModels: z.boolean().describe('Fetch the upstream\'s model list (default true).'),
    forwardClientKey: z.boolean().describe('Send each client\'s own key upstream instead of apiKey (default false).'),
    timeoutMs: z.number().int().min(1).max(86_400_000).describe('Upstream header and body timeout (default 600000, 10 minutes).'),
    onDisconnect: disconnectPolicy,
    enabled: z.boolean().describe('Mock provider only: false turns the mock models off.'),
    slowIntervalMs: milliseconds(60_000, 'Mock provider only: the delay between the pieces of mock-slow (default 100).'),
    slowPieces: z.number().int().min(1).max(100_000).describe('Mock provider only: how many pieces mock-slow streams (default 100).'),
    failStatus: z.number().int().min(400).max(599).describe('Mock provider only: the status mock-fail answers with (default 503).'),
  })
  .partial()
  .strict();

export const keyFileSchema = z
  .object({
    key: z.string().min(1, 'must not be empty').describe('The key a client sends ($NAME reads the environment).'),
    user: z.string().describe('The user the key belongs to: records and usage are kept per user.'),
  })
  .strict();

export const configFileSchema = z
  .object({
    $schema: z.string().describe('Where editors find this schema.'),
    providers: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'provider ids may hold letters, digits, _ . and - only'), z.union([providerFileSchema, z.literal(false)]))
      .describe('Upstream providers by id; `"mock": false` turns the built-in mock models off.'),
    keys: z
      .array(keyFileSchema)
      .describe('Client keys. With none, any key passes and each distinct key is its own user.'),
    aliases: z.record(z.string(), z.string()).describe('Model names (exact, or globs with *) → provider/model or another name.'),
    defaultModels: z
      .record(z.string(), z.string())
      .describe('Per client protocol (openai-chat, anthropic-messages, openai-responses, gemini): the model for a name no provider serves.'),
    server: z
      .object({
        host: z.string().describe('The address to listen on (default 127.0.0.1).'),
        port: z.number().int().min(0).max(65_535).describe('The port (default 4141; a taken port falls back to the next free one).'),
        bodyLimitMb: z.number().min(1).max(4096).describe('The largest request body, in MB (default 64).'),
        shutdownGraceMs: milliseconds(3_600_000, 'How long requests in flight may finish after Ctrl+C or SIGTERM (default 10000).'),
      })
      .partial()
      .strict(),
    recoveries: z
      .object({
        onDisconnect: disconnectPolicy,
        drainTimeoutMs: milliseconds(86_400_000, 'How long a drain may run after its client left (default 600000).'),
        maxRecords: z.number().int().min(1).max(1_000_000).describe('Records kept at most; the oldest go first (default 1000).'),
        maxAgeDays: z.number().min(0).max(3650).describe('Records older than this are removed (default 7).'),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type ProviderFile = z.infer<typeof providerFileSchema>;

/** The config file's JSON Schema, for editors. */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(configFileSchema, { io: 'input' });
  return Object.assign({ $schema, title: 'Switchyard config.json' }, schema);
}
