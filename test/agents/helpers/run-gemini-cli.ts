import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent, type AgentRun, type AgentSandbox } from './agent-sandbox.js';

/**
 * The settings.json that points Gemini CLI at an API key (so GOOGLE_GEMINI_BASE_URL is used) and
 * keeps it quiet: no usage statistics, telemetry, update checks or update nags (docs/agents.md).
 */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/** `gemini -p` against the gateway with its settings in the sandbox HOME and read_file allowed (--yolo). */
export function runGeminiCli(sandbox: AgentSandbox, baseUrl: string, prompt: string, timeoutMs: number): Promise<AgentRun> {
  const settingsFolder = join(sandbox.home, '.gemini');
  mkdirSync(settingsFolder, { recursive: true });
  writeFileSync(join(settingsFolder, 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2));
  const env = {
    ...sandbox.env,
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: 'sk-agent-gemini',
    // Headless runs in an untrusted folder fall back to asking for each tool; the test folder is trusted.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  return runAgent('gemini', ['-p', prompt, '--yolo', '--output-format', 'text'], { cwd: sandbox.workdir, env, timeoutMs });
}
