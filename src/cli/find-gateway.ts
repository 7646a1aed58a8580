import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/config-types.js';
import { STATUS_PATH, type StatusBody } from '../server/status-route.js';

/** The folder of the agent launchers: their pid files, the background gateway's state and log. */
export function agentsDirectory(home: string): string {
  return join(home, 'agents');
}

/** What a launcher that started a background gateway leaves for the others (`gateway.json`). */
export interface BackgroundGatewayState {
  pid: number;
  url: string;
}

export function backgroundStatePath(home: string): string {
  return join(agentsDirectory(home), 'gateway.json');
}

export function backgroundLogPath(home: string): string {
  return join(agentsDirectory(home), 'gateway.log');
}

/** The address `gateway serve` listens on with this config and no flags. */
export function configuredUrl(config: GatewayConfig): string {
  const host = config.server.host === '0.0.0.0' ? '127.0.0.1' : config.server.host === '::' ? '::1' : config.server.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`;
}

/** The status of the Switchyard gateway at `url`, or none when nothing (or something else) answers there. */
export async function probeGateway(url: string, timeoutMs = 1500): Promise<StatusBody | undefined> {
  try {
    const response = await fetch(`${url}${STATUS_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    const body = (await response.json()) as Partial<StatusBody>;
    return body.name === 'switchyard' ? (body as StatusBody) : undefined;
  } catch {
    return undefined;
  }
}

export async function readBackgroundState(home: string): Promise<BackgroundGatewayState | undefined> {
  try {
    const state = JSON.parse(await readFile(backgroundStatePath(home), 'utf8')) as Partial<BackgroundGatewayState>;
    return typeof state.pid === 'number' && typeof state.url === 'string' ? { pid: state.pid, url: state.url } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The gateway running here: the background one a launcher started (it may have fallen back to
 * another port), else the one on the configured address.
 */
export async function findRunningGateway(home: string, config: GatewayConfig): Promise<{ url: string; status: StatusBody; background: boolean } | undefined> {
  const state = await readBackgroundState(home);
  if (state && isAlive(state.pid)) {
    const status = await probeGateway(state.url);
    if (status) return { url: state.url, status, background: true };
  }
  const url = configuredUrl(config);
  const status = await probeGateway(url);
  return status ? { url, status, background: false } : undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
