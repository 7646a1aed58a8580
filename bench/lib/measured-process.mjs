// The one process a diagnostic tool measures (alloc-profile.mjs, heap-per-stream.mjs,
// gc-per-stream.mjs, first-byte-phases.mjs): the gateway on a path, the thinnest translator on a translated path
// (`floor:<path>`), or the reference proxy (`reference`, sent the Chat request or with `gemini`
// the Gemini one); and where it and the fake upstream run.
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTranslated, PATHS, REFERENCE_MODEL } from './catalog.mjs';
import { writeGatewayConfig } from './gateway-config.mjs';
import { findTaskset, pinSelf, startService } from './processes.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The bench's pinning, with two cores or more: this process (the load) and the fake upstream on
 * core 0, the measured process on core 1. Returns where each goes (undefined: anywhere).
 */
export function pinLikeTheBench() {
  const taskset = availableParallelism() >= 2 ? findTaskset() : undefined;
  const pinned = taskset ? pinSelf(taskset, 0) : false;
  return { taskset, loadCpu: pinned ? 0 : undefined, measuredCpu: pinned ? 1 : undefined };
}

/** The fake upstream, on the load's core (anywhere, given no placement). */
export function startFakeUpstream({ taskset, loadCpu }) {
  return startService({ name: 'fake upstream', args: [join(ROOT, 'bench', 'fake-upstream.mjs')], cpu: loadCpu, taskset });
}

/** The target names the tools take, for their usage lines. */
export const TARGETS = '<passthrough | anthropic-to-chat | chat-to-gemini | floor:<translated path> | reference>';

/** Whether `target` names a process these tools can measure. */
export function isMeasurableTarget(target) {
  if (target === 'reference' || PATHS[target] !== undefined) return true;
  const floorPath = target.startsWith('floor:') ? target.slice('floor:'.length) : undefined;
  return floorPath !== undefined && PATHS[floorPath] !== undefined && isTranslated({ path: floorPath });
}

/** The tools' options for the gateway's setup: `--line` keeps its stderr line, `--log-off` turns its request log off, `--inspector-off` its inspector's last requests. */
export const GATEWAY_OPTIONS = {
  line: { type: 'boolean', default: false },
  'log-off': { type: 'boolean', default: false },
  'inspector-off': { type: 'boolean', default: false },
};

/**
 * The gateway's setup from `--line`, `--log-off` and `--inspector-off`: `gateway` for `startMeasuredProcess`, and
 * `label`, what names it in the tool's output. Undefined when any is given for a target that
 * is not the gateway, where it would be ignored without a word.
 */
export function gatewaySetup(target, options) {
  const isGateway = !target.startsWith('floor:') && target !== 'reference';
  if (!isGateway) return options.line || options['log-off'] || options['inspector-off'] ? undefined : { gateway: {}, label: '' };
  return {
    gateway: { quiet: !options.line, log: options['log-off'] ? false : undefined, inspector: options['inspector-off'] ? false : undefined },
    label: ` (${options.line ? 'line on' : '--quiet'}, request log ${options['log-off'] ? 'off' : 'on'}, inspector ${options['inspector-off'] ? 'off' : 'on'})`,
  };
}

/**
 * Starts the process `target` names against the fake upstream at `upstreamUrl`; resolves with the
 * running service and the client side of its path ({ client, model }). `scratch` holds the
 * gateway's config and home. `gateway`: `{ quiet: false }` keeps the stderr line (the tools run
 * the gateway `--quiet` otherwise), `{ log: false }` turns the request log off, `{ inspector: false }`
 * the inspector's last requests.
 */
export async function startMeasuredProcess({ target, gemini = false, upstreamUrl, scratch, nodeArgs = [], env = {}, cpu, taskset, wrapper, timeoutMs, gateway = {} }) {
  const placement = { nodeArgs, env, cpu, taskset, wrapper, timeoutMs };
  if (target === 'reference') {
    const protocol = gemini ? 'gemini' : 'openai-chat';
    const service = await startService({ name: 'reference proxy', args: [join(ROOT, 'bench', 'reference-proxy.mjs'), '--upstream', upstreamUrl], ...placement });
    return { service, path: { client: protocol, model: REFERENCE_MODEL[protocol] } };
  }
  if (target.startsWith('floor:')) {
    const service = await startService({ name: 'thin translator', args: [join(ROOT, 'bench', 'thin-translator.mjs'), '--upstream', upstreamUrl], ...placement });
    return { service, path: PATHS[target.slice('floor:'.length)] };
  }
  const configFile = join(scratch, 'config.json');
  await writeGatewayConfig(configFile, upstreamUrl, { log: gateway.log, inspector: gateway.inspector });
  const home = join(scratch, 'home');
  await mkdir(home, { recursive: true });
  const args = [join(ROOT, 'bin', 'gateway.js'), 'serve', '--port', '0', ...(gateway.quiet === false ? [] : ['--quiet']), '--config', configFile];
  const service = await startService({ name: 'gateway', args, ...placement, env: { ...env, SWITCHYARD_HOME: home } });
  return { service, path: PATHS[target] };
}
