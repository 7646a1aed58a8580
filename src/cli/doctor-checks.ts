import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { defaultConfigPath, recoveriesDirectory } from '../config/paths.js';
import { redactSecrets } from '../core/redact-secrets.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { createUpstreamClient, type UpstreamClient } from '../providers/upstream-client.js';
import { agentsDirectory, configuredUrl, probeGateway } from './find-gateway.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One verdict; `message` says what was found and, unless all is well, what to do. */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  message: string;
}

const PROVIDER_TIMEOUT_MS = 8000;
const MINIMUM_NODE = [20, 19] as const;

/** The config file: which one, and that it parses. The config is returned for the other checks. */
export async function checkConfig(home: string, path: string | undefined): Promise<{ check: DoctorCheck; config?: GatewayConfig }> {
  const file = path ?? defaultConfigPath(home);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  try {
    const config = await loadConfig({ path: file, explicit: path !== undefined });
    if (!exists) return { config, check: { name: 'config', status: 'warn', message: `no config file at ${file}: the defaults apply (mock models only); create it to add providers.` } };
    return { config, check: { name: 'config', status: 'ok', message: `${file} parses (${config.providers.length} provider(s)).` } };
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : String(error);
    return { check: { name: 'config', status: 'fail', message: `${message}; fix the file (its schema: config.schema.json).` } };
  }
}

/** Each provider: reachable and taking its key, by its model list or, where it has none, a one-token request. */
export async function checkProviders(config: GatewayConfig): Promise<DoctorCheck[]> {
  const upstream = createUpstreamClient();
  const protocols = new ProtocolRegistry(BUILT_IN_PROTOCOLS);
  try {
    return await Promise.all(config.providers.map((provider) => checkProvider(upstream, protocols, provider)));
  } finally {
    await upstream.close();
  }
}

async function checkProvider(upstream: UpstreamClient, protocols: ProtocolRegistry, provider: ProviderConfig): Promise<DoctorCheck> {
  const verdict = (status: CheckStatus, message: string): DoctorCheck => ({ name: provider.id, status, message: redactSecrets(message, provider.apiKey ? [provider.apiKey] : []) });
  if (provider.type === 'mock') return verdict('ok', 'mock models: nothing to reach.');
  const protocol = protocols.get(provider.type);
  const headers = Object.assign(protocol.upstreamAuthHeaders(provider.apiKey), provider.headers);
  const keyAdvice = provider.forwardClientKey ? 'it forwards each client\'s key, so a client with a valid key still gets through' : 'check apiKey (or the variable it names)';
  try {
    const list = await send(upstream, { baseURL: provider.baseURL, path: protocol.upstreamModelsPath, method: 'GET', headers, timeoutMs: PROVIDER_TIMEOUT_MS });
    if (list.status === 200) return verdict('ok', `${provider.baseURL} answers and accepts the key (${countModels(list.text)} model(s) listed).`);
    if (list.status === 401 || list.status === 403) return verdict(provider.forwardClientKey ? 'warn' : 'fail', `${provider.baseURL} rejected the key (HTTP ${list.status}): ${keyAdvice}.`);
    if (list.status !== 404 && list.status !== 405) return verdict('fail', `${provider.baseURL} answered its model list with HTTP ${list.status}: check baseURL and the server.`);
    // No model list here (many local servers): a one-token request says as much about the key.
    const model = provider.models[0];
    if (model === undefined) return verdict('warn', `${provider.baseURL} answers but has no model list, and no model is configured to try: add one to providers.${provider.id}.models.`);
    const encoded = protocol.codec.encodeRequest(
      { model, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Say OK.' }] }], tools: [], maxOutputTokens: 1, stream: false, extensions: {} },
      { model },
    );
    const generation = await send(upstream, {
      baseURL: provider.baseURL,
      path: encoded.path,
      method: 'POST',
      headers: Object.assign({ 'content-type': 'application/json' }, encoded.headers, headers),
      body: JSON.stringify(encoded.body),
      timeoutMs: PROVIDER_TIMEOUT_MS,
    });
    if (generation.status >= 200 && generation.status < 300) return verdict('ok', `${provider.baseURL} answers a one-token request to ${model} (it has no model list).`);
    if (generation.status === 401 || generation.status === 403) return verdict(provider.forwardClientKey ? 'warn' : 'fail', `${provider.baseURL} rejected the key (HTTP ${generation.status}): ${keyAdvice}.`);
    return verdict('fail', `${provider.baseURL} answered a one-token request to ${model} with HTTP ${generation.status}: check baseURL and the model name.`);
  } catch (error) {
    return verdict('fail', `${provider.baseURL} is unreachable (${(error as Error).message}): check baseURL and that the server runs.`);
  }
}

async function send(upstream: UpstreamClient, request: Parameters<UpstreamClient['send']>[0]): Promise<{ status: number; text: string }> {
  const response = await upstream.send(request);
  return { status: response.status, text: await response.body.text() };
}

function countModels(text: string): number {
  try {
    const body = JSON.parse(text) as { data?: unknown; models?: unknown };
    return Array.isArray(body.data) ? body.data.length : Array.isArray(body.models) ? body.models.length : 0;
  } catch {
    return 0;
  }
}

/** A PostgreSQL store (docs/team.md): reachable, and its schema at this gateway's version; none for the files. */
export async function checkStore(config: GatewayConfig): Promise<DoctorCheck | undefined> {
  if (config.store.type !== 'postgres') return undefined;
  // The driver is loaded only for a PostgreSQL store, as by serve.
  const { checkPostgresStore } = await import('../store/check-postgres-store.js');
  const { status, message } = await checkPostgresStore(config.store.url);
  return { name: 'database', status, message };
}

/** The configured port: free, or held by a Switchyard gateway; another program there is a warning (serve moves on). */
export async function checkPort(config: GatewayConfig): Promise<DoctorCheck> {
  const url = configuredUrl(config);
  const status = await probeGateway(url);
  if (status) return { name: 'port', status: 'ok', message: `a Switchyard gateway (${status.version}) already runs on ${url}.` };
  const free = await new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(config.server.port, config.server.host, () => server.close(() => resolve(true)));
  });
  if (free) return { name: 'port', status: 'ok', message: `${config.server.host}:${config.server.port} is free.` };
  return { name: 'port', status: 'warn', message: `${config.server.host}:${config.server.port} is taken by another program: serve will take the next free port; set server.port to choose one.` };
}

/** A folder the gateway writes to: made if missing, a file written, read back and removed. */
export async function checkFolder(name: string, folder: string): Promise<DoctorCheck> {
  const probe = join(folder, `.doctor-${process.pid}`);
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFile(probe, 'ok', { mode: 0o600 });
    if ((await readFile(probe, 'utf8')) !== 'ok') throw new Error('what was written did not read back');
    await rm(probe, { force: true });
    return { name, status: 'ok', message: `${folder} is readable and writable.` };
  } catch (error) {
    return { name, status: 'fail', message: `${folder} is not usable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): fix its permissions, or set SWITCHYARD_HOME elsewhere.` };
  }
}

export function checkNode(version = process.versions.node): DoctorCheck {
  const [major, minor] = version.split('.').map(Number);
  const ok = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
  return ok
    ? { name: 'node', status: 'ok', message: `Node ${version}.` }
    : { name: 'node', status: 'fail', message: `Node ${version} is too old: Switchyard needs ${MINIMUM_NODE.join('.')} or newer.` };
}

/** The folders under `$SWITCHYARD_HOME` that the gateway and the launchers write. */
export function doctorFolders(home: string): Array<{ name: string; folder: string }> {
  return [
    { name: 'store', folder: recoveriesDirectory(home) },
    { name: 'log', folder: agentsDirectory(home) },
  ];
}
