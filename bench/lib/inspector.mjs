// A Chrome DevTools Protocol session with a process started under `--inspect=127.0.0.1:0`.
import { WebSocket } from 'undici';

/**
 * Connects to the process whose output announced its inspector. `call` sends a command and
 * resolves with its result; `on(method, listener)` receives the process's events.
 */
export async function connectInspector(output) {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`the process did not start its inspector: ${output.slice(-500)}`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to ${url}`)), { once: true });
  });
  const pending = new Map();
  const listeners = new Map();
  let lastId = 0;
  socket.addEventListener('message', (message) => {
    const reply = JSON.parse(String(message.data));
    if (reply.method) {
      listeners.get(reply.method)?.(reply.params);
      return;
    }
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(`${reply.error.message} (${reply.error.code})`));
    else waiter.resolve(reply.result);
  });
  return {
    call(method, params = {}) {
      const id = ++lastId;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    on(method, listener) {
      listeners.set(method, listener);
    },
    close: () => socket.close(),
  };
}
