// The processes of the benchmark (fake upstream, reference proxy, gateway): each its own process,
// optionally pinned to a core, so its CPU time and memory can be read from /proc.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export const HAS_PROC = existsSync('/proc/self/stat');

export function findTaskset() {
  for (const candidate of ['/usr/bin/taskset', '/bin/taskset', '/usr/local/bin/taskset']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Pins this process and all its threads to `cpu`; false when taskset is missing or refuses. */
export function pinSelf(taskset, cpu) {
  if (!taskset) return false;
  try {
    execFileSync(taskset, ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * CPU time of every thread of the process, in seconds: the sum of the threads' schedstat run time
 * (nanoseconds), or utime + stime from /proc/<pid>/stat (10 ms ticks) where schedstat is missing.
 */
export function cpuSeconds(pid) {
  if (!HAS_PROC) return NaN;
  const { main, others } = cpuSecondsByThread(pid);
  if (main + others > 0) return main + others;
  try {
    const { user, kernel } = statTimes(`/proc/${pid}/stat`);
    return user + kernel;
  } catch {
    return NaN;
  }
}

/**
 * CPU time of the process's main thread and of its other threads together (V8's helpers for the
 * collector and the compiler, libuv's pool), in seconds, from the threads' schedstat run time
 * (nanoseconds); 0 and 0 where there is none.
 */
export function cpuSecondsByThread(pid) {
  const seconds = { main: 0, others: 0 };
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return seconds;
  }
  for (const task of tasks) {
    try {
      seconds[task === String(pid) ? 'main' : 'others'] += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ', 1)[0]) / 1e9;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return seconds;
}

/** User and kernel time of every thread of the process, in seconds (clock ticks, 10 ms on Linux). */
export function userAndKernelSeconds(pid) {
  let user = 0;
  let kernel = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const times = statTimes(`/proc/${pid}/task/${task}/stat`);
      user += times.user;
      kernel += times.kernel;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { user, kernel };
}

/** utime and stime of a /proc stat file, in seconds. */
function statTimes(file) {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND, kernel: Number(fields[12]) / CLOCK_TICKS_PER_SECOND };
}

/** { rssKb, hwmKb } from /proc/<pid>/status (VmRSS now, VmHWM the peak since start). */
export function memoryKb(pid) {
  if (!HAS_PROC) return { rssKb: NaN, hwmKb: NaN };
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return { rssKb: NaN, hwmKb: NaN };
  }
}

/**
 * Starts `node <args>` (pinned to `cpu` when a taskset is given) and waits for the line
 * "listening on http://HOST:PORT" on its output.
 */
export function startService({ name, args, nodeArgs = [], env = {}, cpu, taskset, cwd, timeoutMs = 20_000, stderrFile, wrapper = [] }) {
  // `wrapper`: a command node runs under, as `valgrind --tool=callgrind` (bench/instructions.mjs).
  const node = [...wrapper, process.execPath, ...nodeArgs, ...args];
  const command = taskset && cpu !== undefined ? taskset : node[0];
  const commandArgs = taskset && cpu !== undefined ? ['-c', String(cpu), ...node] : node.slice(1);
  // `stderrFile`: stderr goes to that file, as `gateway serve 2> file` (a pipe read by this process
  // would cost the load generator's core, and is not how users run it).
  const stderr = stderrFile === undefined ? 'pipe' : openSync(stderrFile, 'a');
  const child = spawn(command, commandArgs, { cwd, env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', stderr] });
  if (typeof stderr === 'number') closeSync(stderr);
  let output = '';
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => {
    exited = true;
    resolve({ code, signal });
  }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in ${timeoutMs} ms: ${output.slice(-2000)}${stderrTail(stderrFile)}`));
    }, timeoutMs);
    const onData = (data) => {
      output += data.toString();
      if (output.length > 100_000) output = output.slice(-50_000);
      const match = /listening on (http:\/\/[\w.:[\]-]+:\d+)/.exec(output.replace(/\u001b\[[0-9;]*m/g, ''));
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining the pipes so a chatty process never blocks on a full pipe.
        child.stdout.resume();
        child.stderr?.on('data', (more) => {
          output = (output + more.toString()).slice(-50_000);
        });
        resolve({
          name,
          pid: child.pid,
          url: match[1],
          output: () => output,
          cpuSeconds: () => cpuSeconds(child.pid),
          memoryKb: () => memoryKb(child.pid),
          /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
          async stop(graceMs = 5000) {
            if (exited) return exit;
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            const result = await exit;
            clearTimeout(killer);
            return result;
          },
          kill() {
            if (!exited) child.kill('SIGKILL');
            return exit;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening: ${output.slice(-2000)}${stderrTail(stderrFile)}`));
    });
  });
}

function stderrTail(file) {
  if (file === undefined) return '';
  try {
    return ` (stderr: ${readFileSync(file, 'utf8').slice(-2000)})`;
  } catch {
    return '';
  }
}
