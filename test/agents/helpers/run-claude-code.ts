import { join } from 'node:path';
import { runAgent, type AgentRun, type AgentSandbox } from './agent-sandbox.js';

/** Telemetry, error reporting, update checks and every other non-essential request off. */
export const CLAUDE_QUIET_ENV = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_BUG_COMMAND: '1',
  DISABLE_COST_WARNINGS: '1',
};

/**
 * Claude Code in print mode against `baseUrl`: the key goes as `x-api-key`, its config folder
 * is in the sandbox, and telemetry, error reporting, update checks and every other
 * non-essential request are off.
 */
export function runClaudeCode(sandbox: AgentSandbox, baseUrl: string, prompt: string, timeoutMs: number): Promise<AgentRun> {
  const env = Object.assign({}, sandbox.env, CLAUDE_QUIET_ENV, {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-agent-claude',
    CLAUDE_CONFIG_DIR: join(sandbox.home, '.claude'),
  });
  const args = ['-p', prompt, '--output-format', 'text', '--allowedTools', 'Read'];
  return runAgent('claude', args, { cwd: sandbox.workdir, env, timeoutMs });
}
