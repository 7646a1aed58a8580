import * as v from 'valibot';
import { PROVIDER_PRESETS } from './presets.js';
import { aliasTargetsSchema, apiKeySchema, cooldownFileSchema, modelEntrySchema, retryFileSchema, routeFileSchema } from './routing-schema.js';

/**
 * The config file's shape, as users write it: what each setting is, its type and its range. The
 * published JSON Schema (`config.schema.json`, made from this by `npm run build`) lets editors
 * complete and check `config.json`; `parse-config.ts` validates with it, then resolves what the
 * shape cannot say (presets, `$NAME` references, protocol ids, defaults). valibot, not zod: the
 * gateway loads it at every start, and it costs about 3 MB of memory where zod costs 14.
 */
const described = <Schema extends v.GenericSchema>(schema: Schema, description: string) => v.optional(v.pipe(schema, v.description(description)));

const text = (description: string) => described(v.string(), description);
const flag = (description: string) => described(v.boolean(), description);
const whole = (min: number, max: number, description: string) => described(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)), description);
const disconnectPolicy = described(
  v.picklist(['drain', 'cancel']),
  'When the client goes away: `drain` reads the upstream to its end into a recovery record (paid APIs), `cancel` stops it (local GPU servers).',
);

/** One upstream provider, or the built-in mock models (`"type": "mock"`). */
export const providerFileSchema = v.strictObject({
  type: text('The protocol the upstream speaks: openai-chat, anthropic-messages, openai-responses, gemini, or mock.'),
  preset: described(v.picklist(Object.keys(PROVIDER_PRESETS)), 'Fills in type, baseURL and the disconnect policy of a well-known upstream.'),
  baseURL: text("As the protocol's official SDK takes it: OpenAI-style URLs include /v1, Anthropic and Gemini do not."),
  apiKey: described(apiKeySchema, 'The upstream key, or a list of keys that requests rotate over. "$NAME" or "${NAME}" reads the environment variable NAME.'),
  models: described(
    v.array(modelEntrySchema),
    "Model ids this provider serves (or { id, maxOutputTokens, contextTokens }); the upstream's own list is fetched and added.",
  ),
  headers: described(v.record(v.string(), v.string()), 'Extra headers for every upstream request (values may use $NAME).'),
  discoverModels: flag("Fetch the upstream's model list (default true)."),
  forwardClientKey: flag("Send each client's own key upstream instead of apiKey (default false)."),
  timeoutMs: whole(1, 86_400_000, 'Upstream header and body timeout (default 600000, 10 minutes).'),
  onDisconnect: disconnectPolicy,
  enabled: flag('Mock provider only: false turns the mock models off.'),
  slowIntervalMs: whole(0, 60_000, 'Mock provider only: the delay between the pieces of mock-slow (default 100).'),
  slowPieces: whole(1, 100_000, 'Mock provider only: how many pieces mock-slow streams (default 100).'),
  failStatus: whole(400, 599, 'Mock provider only: the status mock-fail answers with (default 503).'),
  retry: described(retryFileSchema, 'This provider\'s retries, over the top-level retry.'),
  cooldown: described(cooldownFileSchema, 'This provider\'s cooldown, over the top-level cooldown.'),
});

export const keyFileSchema = v.strictObject({
  key: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.description('The key a client sends ($NAME reads the environment).')),
  user: v.pipe(v.string(), v.description('The user the key belongs to: records and usage are kept per user.')),
  admin: flag("The inspector page (/ui) shows this key every user's requests and records, not only its own (default false)."),
});

export const serverFileSchema = v.strictObject({
  host: text('The address to listen on (default 127.0.0.1).'),
  port: whole(0, 65_535, 'The port (default 4141; a taken port falls back to the next free one).'),
  bodyLimitMb: described(v.pipe(v.number(), v.minValue(1), v.maxValue(4096)), 'The largest request body, in MB (default 64).'),
  shutdownGraceMs: whole(0, 3_600_000, 'How long requests in flight may finish after Ctrl+C or SIGTERM (default 10000).'),
  allowedHosts: described(
    v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
    'Host names (or name:port) clients may reach the gateway by, besides loopback and the address it serves on; any other Host header gets 403 (DNS rebinding).',
  ),
});

export const recoveriesFileSchema = v.strictObject({
  onDisconnect: disconnectPolicy,
  drainTimeoutMs: whole(0, 86_400_000, 'How long a drain may run after its client left (default 600000).'),
  maxRecords: whole(1, 1_000_000, 'Records kept at most; the oldest go first (default 1000).'),
  maxAgeDays: described(v.pipe(v.number(), v.minValue(0), v.maxValue(3650)), 'Records older than this are removed (default 7).'),
  resume: flag('A retry of an interrupted request (same user, model and body) is answered from its recovery record instead of going upstream again (default true).'),
  resumeWindowMs: whole(0, 86_400_000, 'How long after its interruption a recovery record answers a retry (default 600000).'),
});

/** Where recovery records are kept; read alone by the recoveries CLI (`load-store-config.ts`). */
export const storeFileSchema = v.strictObject({
  type: v.pipe(v.picklist(['files', 'postgres']), v.description('`files` (default): JSON files under $SWITCHYARD_HOME; `postgres`: a PostgreSQL database shared by several instances (docs/team.md).')),
  url: text('With `postgres`: postgres://user:password@host:port/database, or `$NAME` to read it from the environment (`$DATABASE_URL`). Its password is never shown.'),
  drainLeaseSeconds: whole(1, 3600, 'With `postgres`: a draining record not renewed by its instance for this long (default 30) reads as complete, cut by a stopped instance (docs/team.md).'),
});

export const configFileSchema = v.strictObject({
  $schema: text('Where editors find this schema.'),
  providers: described(
    v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+$/, 'provider ids may hold letters, digits, _ . and - only')), v.union([providerFileSchema, v.literal(false)])),
    'Upstream providers by id; `"mock": false` turns the built-in mock models off.',
  ),
  keys: described(v.array(keyFileSchema), 'Client keys. With none, any key passes and each distinct key is its own user.'),
  aliases: described(v.record(v.string(), aliasTargetsSchema), 'Model names (exact, or globs with *) → provider/model or another name, or a list of them tried in order.'),
  routes: described(v.array(routeFileSchema), 'Rules checked in order before aliases: the first whose `when` holds sends the request to its `to`.'),
  retry: described(retryFileSchema, 'Retries of one target before the next, for every provider.'),
  cooldown: described(cooldownFileSchema, 'A provider failing this often in a row is skipped for a while when another target can serve.'),
  defaultModels: described(
    v.record(v.string(), v.string()),
    'Per client protocol (openai-chat, anthropic-messages, openai-responses, gemini): the model for a name no provider serves.',
  ),
  server: described(serverFileSchema, 'Where and how the gateway listens.'),
  recoveries: described(recoveriesFileSchema, 'Interrupted generations kept as recovery records.'),
  store: described(storeFileSchema, 'Where recovery records are kept (`gateway serve --store` overrides it).'),
  inspector: described(
    v.strictObject({
      keep: whole(0, 100_000, "How many recent requests the inspector page (/ui) keeps in memory with their bodies (default 200; 0 turns its request list off)."),
      bodyMaxMb: whole(1, 4096, 'The most memory the bodies of those requests take, in MB (default 256): past it the oldest bodies are dropped, their requests stay listed.'),
    }),
    'The inspector page, /ui.',
  ),
  log: described(logFileSchema(), 'The request log under $SWITCHYARD_HOME/log, read by `gateway logs` and `gateway usage`.'),
  prices: described(
    v.record(v.string(), modelPriceFileSchema()),
    'Per `provider/model` (or a glob with *): prices that replace the built-in price list, in USD per million tokens.',
  ),
});

function logFileSchema() {
  return v.strictObject({
    enabled: flag('Keep the request log (default true); false keeps nothing on disk, and `gateway usage` and `gateway logs` find nothing new.'),
    maxDays: described(v.pipe(v.number(), v.minValue(0), v.maxValue(3650)), 'Request log entries older than this are removed (default 30).'),
    maxMb: described(v.pipe(v.number(), v.minValue(1), v.maxValue(1_000_000)), "The request log's size on disk at most, in MB; the oldest entries go first (default 200)."),
    bodies: flag('Also keep each request as received, as sent upstream after translation, and its response, keys redacted (default false; `gateway serve --log-bodies`).'),
    bodyMaxKb: whole(1, 1_048_576, 'Each kept body is cut at this size, in kB (default 1024).'),
  });
}

function modelPriceFileSchema() {
  const usdPerMillion = (description: string) => v.pipe(v.number(), v.minValue(0), v.description(description));
  return v.strictObject({
    input: usdPerMillion('USD per million input tokens not read from or written to the cache.'),
    output: usdPerMillion('USD per million output tokens (reasoning included).'),
    cacheRead: v.optional(usdPerMillion('USD per million input tokens read from the cache (default: input).')),
    cacheWrite: v.optional(usdPerMillion('USD per million input tokens written to the cache (default: input).')),
  });
}

export type ConfigFile = v.InferOutput<typeof configFileSchema>;
export type ProviderFile = v.InferOutput<typeof providerFileSchema>;
