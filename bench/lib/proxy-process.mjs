// What the reference proxy and the thinnest translator share as processes: their arguments, and
// serving on 127.0.0.1 until SIGTERM. Neither is part of what they measure.

/** `--upstream URL [--port N]` from the command line; prints the usage and exits 2 without an upstream. */
export function readProxyArguments(script) {
  const argument = (name, fallback) => {
    const position = process.argv.indexOf(name);
    return position > 0 ? process.argv[position + 1] : fallback;
  };
  const upstream = argument('--upstream');
  if (!upstream) {
    console.error(`usage: node ${script} --upstream http://127.0.0.1:PORT [--port N]`);
    process.exit(2);
  }
  return { upstream, port: Number(argument('--port', '0')) };
}

/**
 * Listens on 127.0.0.1 with the timeouts of a proxy that holds connections for long (the runner
 * reads the "listening on" line), and closes the server, then `pool`, on SIGTERM.
 */
export function serveUntilStopped(server, pool, port) {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;
  server.requestTimeout = 0;
  server.listen(port, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => pool.close().finally(() => process.exit(0)));
  });
}

/** The upstream could not be reached or broke: a 502 if nothing was sent yet, else a cut connection. */
export function failResponse(response) {
  if (response.headersSent) response.destroy();
  else {
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end('{"error":{"message":"upstream unreachable"}}');
  }
}
