import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay in front of the database that can play dead: connections refused and cut. */
export class DatabaseRelay {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #down = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.#server = createServer((socket) => {
      if (this.#down) return socket.destroy();
      const upstream = createConnection(this.target);
      this.#sockets.add(socket).add(upstream);
      const close = () => {
        socket.destroy();
        upstream.destroy();
        this.#sockets.delete(socket);
        this.#sockets.delete(upstream);
      };
      socket.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      socket.pipe(upstream).pipe(socket);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
  }

  stop(): void {
    this.#down = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  start(): void {
    this.#down = false;
  }

  close(): Promise<void> {
    this.stop();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
