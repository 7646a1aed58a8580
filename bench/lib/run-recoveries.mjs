// Recoveries: the event-loop delay while records are written into a store already holding
// 100 records of 5 MB. Runs bench/recoveries-store.mjs (its own process, the compiled store) and
// reads its table; the budget line is the worst p99 over the scenarios on the full store (the
// "control" rows, plain file writes without the store, are shown but not judged).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../recoveries-store.mjs', import.meta.url));

/** The rows of a console.table printout, keyed by its header. */
export function parseConsoleTable(text) {
  const lines = text.split('\n').filter((line) => line.startsWith('│'));
  if (lines.length < 2) return [];
  const cellsOf = (line) => line.split('│').slice(1, -1).map((cell) => cell.trim());
  const header = cellsOf(lines[0]);
  return lines.slice(1).map((line) => {
    const cells = cellsOf(line);
    const row = {};
    header.forEach((name, index) => {
      if (name === '(index)') return;
      const raw = cells[index] ?? '';
      const unquoted = raw.replace(/^'(.*)'$/, '$1');
      row[name] = unquoted !== raw || raw === '' || Number.isNaN(Number(raw)) ? unquoted : Number(raw);
    });
    return row;
  });
}

function runScript(env, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export async function runRecoveriesScenario({ scenario, settings, log }) {
  const base = { id: scenario.id, group: 'recoveries', description: scenario.description, metrics: scenario.metrics };
  const outcome = await runScript(settings.store, settings.storeTimeoutMs);
  const rows = parseConsoleTable(outcome.stdout);
  if (outcome.code !== 0 || rows.length === 0) {
    const why = outcome.signal ? `killed (${outcome.signal}) after ${settings.storeTimeoutMs} ms` : `exit ${outcome.code}`;
    return { ...base, status: 'unavailable', reason: `bench/recoveries-store.mjs failed (${why}): ${(outcome.stderr || outcome.stdout).replace(/\s+/g, ' ').slice(-200)}` };
  }
  const full = rows.filter((row) => row.stored !== 'none' && !String(row.scenario).startsWith('control'));
  const judged = full.length > 0 ? full : rows.filter((row) => !String(row.scenario).startsWith('control'));
  const delays = judged.map((row) => row['loop delay p99 ms']).filter((value) => typeof value === 'number');
  const bigAdds = full.find((row) => / MB$/.test(String(row.scenario)) && String(row.scenario).includes('sequential'));
  const summary = outcome.stdout.split('\n').find((line) => line.startsWith('node ')) ?? '';
  log(`  ${summary}`);
  for (const row of rows) log(`  ${row.stored} | ${row.scenario}: loop delay p99 ${row['loop delay p99 ms']} ms, add p50 ${row['add p50 ms']} ms`);
  return {
    ...base,
    status: delays.length > 0 ? 'ok' : 'unavailable',
    ...(delays.length === 0 && { reason: 'no "loop delay p99 ms" column in the output of bench/recoveries-store.mjs' }),
    gateway: { loopDelayP99Ms: Math.max(...delays), addP50Ms: bigAdds?.['add p50 ms'] ?? NaN },
    settings: settings.store,
    summary,
    rows,
  };
}
