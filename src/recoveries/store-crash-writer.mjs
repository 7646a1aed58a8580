// The writer that recovery-store-crash.test.ts kills with SIGKILL at random points: it adds
// records (and removes some) as fast as it can and prints each id once the store has
// acknowledged it, like a client that saw the id come back (`+id` added, `-id` removed; `?id`
// before a removal starts, whose outcome is unknown until `-id`). Plain JavaScript: it imports the store
// transpiled by transpile-for-child-processes.mjs.
import { pathToFileURL } from 'node:url';

const task = JSON.parse(process.argv[2]);
const { openRecoveryStore } = await import(pathToFileURL(task.storeModule).href);
const { createRecoveryRecord } = await import(pathToFileURL(task.recordModule).href);
// A lock left by a killed writer must be taken over well before this.
const store = await openRecoveryStore({ directory: task.directory, maxRecords: 100_000, lockTimeoutMs: 3000 });

function record(id, position) {
  return createRecoveryRecord({
    requestId: id,
    createdAt: Math.floor(Date.now() / 1000),
    interruptedReason: 'client_disconnected',
    state: position % 3 === 0 ? 'draining' : 'complete',
    user: 'crash',
    model: 'model-a',
    protocol: 'openai-chat',
    provider: 'mock',
    requestBodyText: JSON.stringify({ id }),
    // Some large bodies, so that kills land in the write of a file as well as in the lock.
    responseBodyText: JSON.stringify({ id, padding: 'x'.repeat(position % 4 === 0 ? 200_000 : 500) }),
  });
}

try {
  for (let position = 0; position < task.count; position += 1) {
    const id = `${task.name}-${position}`;
    const pending = [store.add(record(id, position)).then(() => `+${id}`)];
    // Writes in flight together, as a busy server's are, so kills land inside batches too.
    if (position % 5 === 4) process.stdout.write(`?${task.name}-${position - 2}\n`);
    if (position % 5 === 4) pending.push(store.remove(`${task.name}-${position - 2}`).then((removed) => (removed ? `-${task.name}-${position - 2}` : '')));
    if (position % 7 === 6) pending.push(store.replace(record(`${task.name}-${position - 3}`, 1)).then(() => ''));
    for (const line of await Promise.all(pending)) if (line) process.stdout.write(`${line}\n`);
  }
} catch (error) {
  process.stdout.write(`!${error.code ?? ''} ${error.message}\n`);
}
await store.close();
