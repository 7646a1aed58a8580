// The gateway's configuration in the benchmark: the fake upstream as a Chat provider (model `m`)
// and as a Gemini one (model `g`), no mock models, no model discovery. Everything else is the
// default, as users run it: the request log on.
//
// `log: false` turns the request log off (the log scenarios' other side), `inspector: false` the
// inspector's last requests (`inspector.keep: 0`). `routing: true` adds
// what the routing scenarios ask for: a three-entry fallback chain (`chain`) whose first entry is
// healthy, and two pools of three keys, one with a key the fake upstream answers 429
// (`limited/m`) and one all healthy (`healthy/m`). `store: 'postgres'` puts the gateway's store on the
// PostgreSQL database its DATABASE_URL names (docs/team.md: the recoveries, the request log, the key
// pools' state): the URL stays in the environment, as the docs tell users to, never in the file.
import { writeFile } from 'node:fs/promises';

/** The key the fake upstream rate-limits (bench/fake-upstream.mjs). */
export const LIMITED_KEY = 'upstream-key-limited';

export function writeGatewayConfig(file, upstreamUrl, options = {}) {
  const chat = (apiKey) => ({ type: 'openai-chat', baseURL: `${upstreamUrl}/v1`, apiKey, models: ['m'], discoverModels: false });
  const providers = {
    up: chat('upstream-key'),
    gem: { type: 'gemini', baseURL: upstreamUrl, apiKey: 'upstream-key', models: ['g'], discoverModels: false },
    mock: false,
  };
  const config = { providers };
  if (options.routing) {
    Object.assign(providers, {
      second: chat('upstream-key'),
      third: chat('upstream-key'),
      healthy: chat(['upstream-key-a', 'upstream-key-b', 'upstream-key-c']),
      limited: chat(['upstream-key-a', LIMITED_KEY, 'upstream-key-c']),
    });
    config.aliases = { chain: ['up/m', 'second/m', 'third/m'] };
  }
  if (options.log === false) config.log = { enabled: false };
  if (options.inspector === false) config.inspector = { keep: 0 };
  if (options.store === 'postgres') config.store = { type: 'postgres', url: '$DATABASE_URL' };
  return writeFile(file, JSON.stringify(config));
}
