import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent, type AgentRun, type AgentSandbox } from './agent-sandbox.js';

export interface CodexOptions {
  /** The model Codex asks for; undefined: its default (a model of its own catalog, which changes the request body). */
  model: string | undefined;
  /** Let Codex try a WebSocket on /v1/responses first (the gateway answers 426; Codex falls back to HTTP). */
  websockets?: boolean;
}

/**
 * The config.toml that points Codex at the gateway (documented in docs/agents.md): a custom
 * provider on the Responses wire API with its key in an environment variable, no retries (a failed
 * turn must show), and analytics, feedback, update checks and OpenTelemetry off.
 */
export function codexConfigToml(baseUrl: string, options: CodexOptions): string {
  return [
    ...(options.model ? [`model = "${options.model}"`] : []),
    'model_provider = "switchyard"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.switchyard]',
    'name = "Switchyard"',
    `base_url = "${baseUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "SWITCHYARD_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    ...(options.websockets ? ['supports_websockets = true'] : []),
    '',
    CODEX_QUIET_TABLES,
  ].join('\n');
}

/** The tables of config.toml that keep Codex off the network: no plugin sync, analytics, feedback or OpenTelemetry. */
export const CODEX_QUIET_TABLES = [
  // The plugin marketplace sync fetches from github.com and chatgpt.com at startup.
  '[features]',
  'plugins = false',
  '',
  '[analytics]',
  'enabled = false',
  '',
  '[feedback]',
  'enabled = false',
  '',
  '[otel]',
  'exporter = "none"',
  'trace_exporter = "none"',
  'metrics_exporter = "none"',
  '',
].join('\n');

/** `codex exec` against the gateway with its CODEX_HOME in the sandbox. */
export function runCodex(sandbox: AgentSandbox, baseUrl: string, prompt: string, options: CodexOptions, timeoutMs: number): Promise<AgentRun> {
  const codexHome = join(sandbox.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(baseUrl, options));
  const env = { ...sandbox.env, CODEX_HOME: codexHome, SWITCHYARD_API_KEY: 'sk-agent-codex', RUST_LOG: 'warn' };
  // No sandbox of Codex's own: bubblewrap needs user namespaces, which containers (CI) often lack.
  const args = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--color', 'never', '-C', sandbox.workdir, prompt];
  return runAgent('codex', args, { cwd: sandbox.workdir, env, timeoutMs });
}
