/**
 * The client's side of one request: whether it has gone away (closed the connection before the
 * response ended). Lighter than an AbortSignal, which matters on a path taken by every request.
 */
export interface ClientConnection {
  readonly gone: boolean;
  /** Calls `listener` once when the client goes away; returns a function that stops listening. */
  onGone(listener: () => void): () => void;
}

/**
 * A connection that goes away when `subscribe` says so (a Node response's `close`, a signal's
 * `abort`). `gone` is a plain field, set once: an object literal with a getter is made in
 * dictionary mode, ~300 ns per request.
 */
export function createClientConnection(subscribe: (markGone: () => void) => void): ClientConnection {
  const listeners = new Set<() => void>();
  const connection = {
    gone: false,
    onGone(listener: () => void): () => void {
      if (connection.gone) {
        listener();
        return () => undefined;
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  subscribe(() => {
    if (connection.gone) return;
    connection.gone = true;
    for (const listener of [...listeners]) listener();
    listeners.clear();
  });
  return connection;
}
