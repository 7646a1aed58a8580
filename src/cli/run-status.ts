import chalk from 'chalk';
import { resolveSwitchyardHome } from '../config/paths.js';
import { configuredUrl, findRunningGateway } from './find-gateway.js';
import { loadAgentConfig } from './run-agent.js';

export async function runStatus(options: { json?: boolean; config?: string }): Promise<number> {
  const home = resolveSwitchyardHome();
  const config = await loadAgentConfig(home, options.config);
  if (!config) return 1;
  const running = await findRunningGateway(home, config);
  const status = running?.status;
  const report = {
    running: running !== undefined,
    url: running?.url ?? configuredUrl(config),
    version: status?.version ?? null,
    uptime_s: status?.uptime_s ?? null,
    in_flight: status?.in_flight ?? null,
    draining: status?.draining ?? null,
  };
  if (options.json) {
    console.log(JSON.stringify(report));
    return 0;
  }
  if (!running || !status) {
    console.log(`${chalk.yellow('not running')}: no gateway answers on ${report.url} (start one with \`gateway serve\`, or run an agent with \`gateway claude\`).`);
    return 0;
  }
  console.log(`${chalk.green('running')} on ${chalk.cyan(running.url)}${running.background ? chalk.dim(' (in the background, for agents)') : ''}`);
  console.log(`  version:    ${status.version}`);
  console.log(`  uptime:     ${formatUptime(status.uptime_s)}`);
  console.log(`  in flight:  ${status.in_flight}`);
  console.log(`  draining:   ${status.draining}`);
  return 0;
}

function formatUptime(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}
