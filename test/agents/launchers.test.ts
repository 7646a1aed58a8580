import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGatewayConfig, VENDOR } from './helpers/agent-gateway.js';
import { AGENT_BIN, createAgentSandbox, describeRun, runAgent, type AgentSandbox } from './helpers/agent-sandbox.js';
import { startNetworkTrap, type NetworkTrap } from './helpers/network-trap.js';
import type { UpstreamProtocol } from './helpers/read-upstream-request.js';
import { CLAUDE_QUIET_ENV } from './helpers/run-claude-code.js';
import { CODEX_QUIET_TABLES } from './helpers/run-codex.js';
import { GEMINI_SETTINGS } from './helpers/run-gemini-cli.js';
import { OPENCODE_QUIET_ENV } from './helpers/run-opencode.js';
import { AGENT_TIMEOUT_MS, PROMPTS } from './helpers/run-scenario.js';
import { QWEN_SETTINGS } from './helpers/run-qwen-code.js';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.js';

/**
 * `gateway <agent> --model provider/model -- <agent args>` as a user runs it (bin/gateway.js, so
 * dist/), with the real agent on PATH: the launcher starts a background gateway on the port of the
 * config, points the agent at it by its own conventions, and stops the gateway when the agent
 * exits. The user's own agent settings hold only what keeps the agent quiet, never the gateway:
 * reaching it is the launcher's job. Each agent's model is sent to a vendor of another protocol.
 */
const GATEWAY_SCRIPT = fileURLToPath(new URL('../../bin/gateway.js', import.meta.url));

let vendor: ScriptedUpstream;
let trap: NetworkTrap;
beforeAll(async () => {
  vendor = await startScriptedUpstream();
  trap = await startNetworkTrap();
});
afterAll(async () => {
  await vendor?.close();
  await trap?.close();
});

interface LauncherCase {
  agent: 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen';
  target: UpstreamProtocol;
  /** The user's own settings: telemetry and update checks off, nothing about the gateway. */
  prepare(sandbox: AgentSandbox): Record<string, string>;
  args(sandbox: AgentSandbox, prompt: string): string[];
}

const CASES: LauncherCase[] = [
  {
    agent: 'claude',
    target: 'gemini',
    prepare: (sandbox) => Object.assign({ CLAUDE_CONFIG_DIR: join(sandbox.home, '.claude') }, CLAUDE_QUIET_ENV),
    args: (_sandbox, prompt) => ['-p', prompt, '--output-format', 'text'],
  },
  {
    agent: 'codex',
    target: 'anthropic-messages',
    prepare: (sandbox) => {
      const codexHome = join(sandbox.home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(join(codexHome, 'config.toml'), `check_for_update_on_startup = false\n\n${CODEX_QUIET_TABLES}`);
      return { CODEX_HOME: codexHome, RUST_LOG: 'warn' };
    },
    args: (sandbox, prompt) => ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--color', 'never', '-C', sandbox.workdir, prompt],
  },
  {
    agent: 'gemini',
    target: 'openai-chat',
    prepare: (sandbox) => {
      // With the API key chosen once, as its first run asks: headless, Gemini CLI 0.61.0 ignores
      // GEMINI_DEFAULT_AUTH_TYPE (it only preselects the choice in the interactive dialog) and,
      // with GOOGLE_GEMINI_BASE_URL set and no auth type saved, takes an auth type "gateway" that it
      // then refuses ("Invalid auth method selected.", exit 41). docs/agents.md says so.
      writeSettings(join(sandbox.home, '.gemini'), GEMINI_SETTINGS);
      return { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    },
    args: (_sandbox, prompt) => ['-p', prompt, '--output-format', 'text'],
  },
  {
    agent: 'opencode',
    target: 'openai-responses',
    prepare: () => Object.assign({}, OPENCODE_QUIET_ENV),
    args: (_sandbox, prompt) => ['run', prompt],
  },
  {
    agent: 'qwen',
    target: 'gemini',
    prepare: (sandbox) => {
      // Without an auth type of its own: the launcher's --auth-type openai picks it.
      const { security: _auth, ...quiet } = QWEN_SETTINGS;
      writeSettings(join(sandbox.home, '.qwen'), quiet);
      return {};
    },
    args: (_sandbox, prompt) => ['-p', prompt, '--output-format', 'text'],
  },
];

describe.each(CASES)('gateway $agent → $target vendor', ({ agent, target, prepare, args }) => {
  it('starts a background gateway, runs the agent on it with the chosen model, prints its answer and stops the gateway', async () => {
    const sandbox = createAgentSandbox(`launcher-${agent}`, trap.url);
    const switchyardHome = join(sandbox.home, '.switchyard');
    try {
      const port = await freePort();
      mkdirSync(switchyardHome);
      writeFileSync(join(switchyardHome, 'config.json'), JSON.stringify(Object.assign({ server: { port } }, agentGatewayConfig(vendor.url, target))));
      const answer = `Hello from the scripted ${target} vendor through the ${agent} launcher.`;
      vendor.script = { scenario: 'text', answer, filePath: sandbox.filePath, fileToken: sandbox.fileToken };
      const vendorStart = vendor.exchanges.length;
      const strayStart = trap.strays.length;
      const env = Object.assign({}, sandbox.env, prepare(sandbox), { SWITCHYARD_HOME: switchyardHome, PATH: `${AGENT_BIN}:${sandbox.env.PATH}` });
      const model = `${VENDOR[target].provider}/${VENDOR[target].model}`;
      const run = await runAgent(process.execPath, [GATEWAY_SCRIPT, agent, '--model', model, '--', ...args(sandbox, PROMPTS.text)], { cwd: sandbox.workdir, env, timeoutMs: AGENT_TIMEOUT_MS });
      const exchanges = vendor.exchanges.slice(vendorStart);
      const log = readLog(switchyardHome);
      const describe = () =>
        [describeRun(run), '--- vendor ---', ...exchanges.map((exchange) => `${exchange.method} ${exchange.url} → ${JSON.stringify(exchange.refusal ?? exchange.answer)?.slice(0, 300)}`), '--- gateway.log ---', log.slice(-3000)].join('\n');

      expect(run.timedOut, describe()).toBe(false);
      expect(run.code, describe()).toBe(0);
      expect(run.stdout.split(answer).length - 1, describe()).toBe(1);
      // Every model request reached the vendor of the chosen model, in its protocol, and was answered.
      expect(exchanges.length, describe()).toBeGreaterThan(0);
      for (const exchange of exchanges) {
        expect(exchange.turn?.protocol, describe()).toBe(target);
        expect(exchange.turn?.model, describe()).toBe(VENDOR[target].model);
        expect(exchange.refusal, describe()).toBeUndefined();
      }
      // The gateway's output went to its log, and the last agent out stopped it.
      expect(log).toContain(`listening on http://127.0.0.1:${port}`);
      expect(existsSync(join(switchyardHome, 'agents', 'gateway.json'))).toBe(false);
      expect(await stopped(`http://127.0.0.1:${port}`)).toBe(true);
      expect(trap.strays.slice(strayStart), describe()).toEqual([]);
    } finally {
      stopLeftoverGateway(switchyardHome);
      sandbox.remove();
    }
  });
});

function writeSettings(folder: string, settings: unknown): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'settings.json'), JSON.stringify(settings, null, 2));
}

function readLog(home: string): string {
  try {
    return readFileSync(join(home, 'agents', 'gateway.log'), 'utf8');
  } catch {
    return '';
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A stopped gateway takes a moment to close its port; bounded. */
async function stopped(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(`${url}/switchyard/status`, { signal: AbortSignal.timeout(1000) });
    } catch {
      return true;
    }
    await sleep(50);
  }
  return false;
}

/** A launcher killed by the time limit leaves its background gateway running: stop the one this test started. */
function stopLeftoverGateway(home: string): void {
  try {
    const { pid } = JSON.parse(readFileSync(join(home, 'agents', 'gateway.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
  } catch {
    // None left.
  }
}
