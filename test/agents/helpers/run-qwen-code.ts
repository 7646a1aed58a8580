import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent, type AgentRun, type AgentSandbox } from './agent-sandbox.js';

/**
 * The settings.json that picks Qwen Code's OpenAI-compatible auth (so OPENAI_BASE_URL is used) and
 * keeps it quiet: no usage statistics, telemetry or update checks (docs/agents.md). Its background
 * memory agents are off too: after a turn they send model requests of their own (through the
 * gateway like any other), which would make the number of requests per run vary.
 */
export const QWEN_SETTINGS = {
  security: { auth: { selectedType: 'openai' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
};

/** `qwen -p` against the gateway with its settings in the sandbox HOME and its tools allowed (--yolo). */
export function runQwenCode(sandbox: AgentSandbox, baseUrl: string, prompt: string, timeoutMs: number): Promise<AgentRun> {
  const settingsFolder = join(sandbox.home, '.qwen');
  mkdirSync(settingsFolder, { recursive: true });
  writeFileSync(join(settingsFolder, 'settings.json'), JSON.stringify(QWEN_SETTINGS, null, 2));
  const env = Object.assign({}, sandbox.env, { OPENAI_BASE_URL: `${baseUrl}/v1`, OPENAI_API_KEY: 'sk-agent-qwen' });
  return runAgent('qwen', ['-p', prompt, '--yolo', '--output-format', 'text'], { cwd: sandbox.workdir, env, timeoutMs });
}
