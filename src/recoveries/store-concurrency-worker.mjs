// A second and third writer for recovery-store-concurrency.test.ts, run as a worker thread (a
// "server") or as a child process (a CLI running `recoveries rm --all` in a loop). Plain
// JavaScript: it imports the store transpiled by transpile-for-child-processes.mjs.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

const task = isMainThread ? JSON.parse(process.argv[2]) : workerData;
const { openRecoveryStore } = await import(pathToFileURL(task.storeModule).href);
const { createRecoveryRecord } = await import(pathToFileURL(task.recordModule).href);
const store = await openRecoveryStore({ directory: task.directory, maxRecords: 100_000 });

function record(id, user) {
  return createRecoveryRecord({
    requestId: id,
    createdAt: Math.floor(Date.now() / 1000),
    interruptedReason: 'client_disconnected',
    user,
    model: 'model-a',
    protocol: 'openai-chat',
    provider: 'mock',
    requestBodyText: JSON.stringify({ id }),
    responseBodyText: JSON.stringify({ id, padding: 'x'.repeat(2000) }),
  });
}

async function runWriter() {
  const added = [];
  const removed = [];
  const doomed = [];
  for (let position = 0; position < task.count; position += 1) {
    const id = `${task.name}-${position}`;
    await store.add(record(id, task.name));
    added.push(id);
    if (position % 3 === 2 && (await store.remove(added[position - 1], task.name))) removed.push(added[position - 1]);
    if (position % 4 === 0) {
      const doomedId = `${task.name}-doomed-${position}`;
      await store.add(record(doomedId, 'doomed'));
      doomed.push(doomedId);
    }
    if (position % 5 === 0) await store.list();
  }
  return { added, removed, doomed };
}

async function runCleaner() {
  let removedDoomed = 0;
  let rounds = 0;
  while (!existsSync(task.stopFile)) {
    await store.list();
    removedDoomed += await store.removeAll('doomed');
    rounds += 1;
    await sleep(5);
  }
  return { removedDoomed, rounds };
}

const result = task.role === 'cleaner' ? await runCleaner() : await runWriter();
await store.close();
if (isMainThread) process.stdout.write(JSON.stringify(result));
else parentPort.postMessage(result);
