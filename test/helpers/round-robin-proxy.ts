import { createServer, request, type Server } from 'node:http';

/**
 * A load balancer in front of several gateway instances, as a team runs them: each HTTP request
 * goes to the next instance in turn, whatever connection it came on, and its response streams
 * back as it comes, marked with the instance that answered (`x-test-instance`: its index).
 */
export class RoundRobinProxy {
  readonly #server: Server;
  readonly #targets: string[];
  #next = 0;
  url = '';

  constructor(targets: string[]) {
    this.#targets = targets;
    this.#server = createServer((incoming, outgoing) => {
      const index = this.#next;
      this.#next = (this.#next + 1) % this.#targets.length;
      const target = new URL(incoming.url ?? '/', this.#targets[index]);
      const forward = request(target, { method: incoming.method, headers: Object.assign({}, incoming.headers, { host: target.host }) }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, Object.assign({}, answer.headers, { 'x-test-instance': String(index) }));
        answer.pipe(outgoing);
      });
      forward.on('error', () => outgoing.destroy());
      // A client that goes away is gone for the instance too: the gateway sees the disconnect.
      outgoing.on('close', () => forward.destroy());
      incoming.pipe(forward);
    });
  }

  /** The instance the next request goes to. */
  set nextInstance(index: number) {
    this.#next = index;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
