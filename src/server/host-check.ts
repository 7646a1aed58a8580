import type { Socket } from 'node:net';
import type { H3Event, Middleware } from 'h3';
import type { GatewayConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { errorResponse } from './to-http-response.js';

/**
 * DNS rebinding: a page on `evil.example` whose name is made to resolve to 127.0.0.1 is
 * same-origin to the browser, and could spend the user's upstream keys and read the inspector.
 * Its requests still carry `Host: evil.example:PORT`, so every endpoint answers only when the
 * Host is exactly a loopback name or address with the gateway's port, the address the
 * connection came in on (the one the gateway serves on), or a name in `server.allowedHosts`.
 * Exact matches only: `127.0.0.1.evil.example` is foreign.
 */
export function createHostCheck(gateway: Gateway, protocols: ProtocolRegistry): Middleware {
  let cached: { config: GatewayConfig; port: number; hosts: Set<string> } | undefined;
  return (event) => {
    const host = event.req.headers.get('host');
    const socket = socketOf(event);
    const port = socket?.localPort;
    // No socket: the app is called in-process (tests of handlers), where no browser can reach.
    if (socket === undefined || port === undefined) return undefined;
    const config = gateway.config();
    if (cached === undefined || cached.config !== config || cached.port !== port) cached = { config, port, hosts: allowedHosts(config, port) };
    if (host !== null) {
      const name = host.toLowerCase();
      if (cached.hosts.has(name) || name === hostWithPort(socket.localAddress, port)) return undefined;
    }
    const shown = host === null ? 'none' : `'${host.slice(0, 100).replace(/[^\x20-\x7e]/g, '?')}'`;
    return errorResponse(
      event,
      protocols.ofPath(event.url.pathname),
      new GatewayError('permission', `This gateway answers only requests addressed to localhost, 127.0.0.1 or [::1] on its port, or to a host listed in server.allowedHosts (Host: ${shown}).`),
    );
  };
}

function socketOf(event: H3Event): Socket | undefined {
  return (event.runtime as { node?: { req?: { socket?: Socket } } } | undefined)?.node?.req?.socket;
}

/** The Host values accepted on `port`, lower-cased. */
export function allowedHosts(config: GatewayConfig, port: number): Set<string> {
  const hosts = new Set<string>();
  const add = (name: string, withPort: boolean) => {
    const lower = name.toLowerCase();
    if (!withPort) {
      hosts.add(lower);
      return;
    }
    hosts.add(`${lower}:${port}`);
    // Browsers leave out the scheme's default port.
    if (port === 80) hosts.add(lower);
  };
  for (const name of ['localhost', '127.0.0.1', '[::1]']) add(name, true);
  const served = config.server.host;
  add(served.includes(':') ? `[${served}]` : served, true);
  for (const entry of config.server.allowedHosts) {
    // `name:port` and `[v6]:port` name their port; `name` and `[v6]` are taken on the gateway's.
    const hasPort = entry.startsWith('[') ? /\]:\d+$/.test(entry) : entry.includes(':');
    add(entry, !hasPort);
  }
  return hosts;
}

function hostWithPort(address: string | undefined, port: number): string | undefined {
  if (address === undefined) return undefined;
  // An IPv4 client on a dual-stack socket shows as ::ffff:127.0.0.1.
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return plain.includes(':') ? `[${plain.toLowerCase()}]:${port}` : `${plain}:${port}`;
}
