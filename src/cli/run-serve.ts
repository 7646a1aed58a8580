import chalk from 'chalk';
import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../config/config-error.js';
import { defaultConfigPath, resolveSwitchyardHome } from '../config/paths.js';
import { createLogger } from '../server/create-logger.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { isPostgresUrl } from '../store/database-url.js';
import { openConfiguredRecoveryStore } from '../store/open-configured-store.js';
import { openConfiguredRequestLog } from '../store/open-configured-request-log.js';
import { openConfiguredKeyPool } from '../store/open-configured-key-pool.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';

/** The options of `gateway serve`, as commander hands them over. */
export interface ServeOptions {
  host?: string;
  port?: string;
  config?: string;
  quiet?: boolean;
  logBodies?: boolean;
  /** A postgres:// URL: replaces the config's `store`. */
  store?: string;
}

/** `gateway serve`: returns the exit code once the server has stopped. */
export async function runServe(options: ServeOptions): Promise<number> {
  const home = resolveSwitchyardHome();
  const configPath = options.config ?? defaultConfigPath(home);
  let port: number | undefined;
  if (options.port !== undefined) {
    port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      console.error(chalk.red(`Invalid --port '${options.port}': expected a number from 0 to 65535.`));
      return 2;
    }
  }
  let config;
  try {
    config = await loadConfig({ path: configPath, explicit: options.config !== undefined });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(chalk.red(`Invalid config: ${error.message}`));
      return 1;
    }
    throw error;
  }
  const logger = createLogger({ quiet: options.quiet });
  if (options.store !== undefined) {
    if (!isPostgresUrl(options.store)) {
      console.error(chalk.red(`Invalid --store: expected a postgres:// or postgresql:// URL.`));
      return 2;
    }
    // The URL replaces the config's; the rest of a PostgreSQL store's settings (the lease) stay.
    const kept = config.store.type === 'postgres' ? config.store : {};
    config = Object.assign({}, config, { store: Object.assign({}, kept, { type: 'postgres' as const, url: options.store }) });
  }
  let recoveryStore;
  try {
    recoveryStore = await openConfiguredRecoveryStore(config.store, home, { maxRecords: config.recoveries.maxRecords, maxAgeMs: config.recoveries.maxAgeMs });
  } catch (error) {
    if (error instanceof RecoveryStoreError) {
      console.error(chalk.red(`Cannot open the recoveries store: ${error.message}`));
      return 1;
    }
    throw error;
  }
  let requestLog;
  try {
    requestLog = config.log.enabled ? await openConfiguredRequestLog(config.store, home, { write: { maxAgeMs: config.log.maxAgeMs, maxBytes: config.log.maxBytes }, log: (message) => logger.warn(message) }) : undefined;
  } catch (error) {
    await recoveryStore.close();
    console.error(chalk.red(`Cannot open the request log: ${(error as Error).message}`));
    return 1;
  }
  let server: RunningServer | undefined;
  // Until the server runs, the config just loaded; then the one it reloads on change.
  const keyPool = await openConfiguredKeyPool(config.store, () => server?.gateway.config() ?? config, (message) => logger.warn(message));
  try {
    server = await startServer({
      config,
      logger,
      recoveryStore,
      keys: keyPool.keys,
      host: options.host,
      port,
      watch: { path: configPath, explicit: options.config !== undefined },
      requestLog: requestLog?.sink && { sink: requestLog.sink, source: requestLog.source, bodies: options.logBodies },
    });
  } catch (error) {
    // Open connections to a database would keep the process alive after it said it failed.
    await keyPool.close();
    await requestLog?.source.close();
    await recoveryStore.close();
    console.error(chalk.red(`Could not start the server: ${(error as Error).message}`));
    return 1;
  }
  const models = server.gateway.listModels().map((model) => model.id);
  if (server.portChanged) console.log(chalk.yellow(`Port ${port ?? config.server.port} is taken; using ${server.port} instead.`));
  console.log(`${chalk.bold('Switchyard')} listening on ${chalk.cyan(server.url)}`);
  console.log(`  OpenAI base URL:    ${server.url}/v1`);
  console.log(`  Anthropic base URL: ${server.url}`);
  console.log(`  Gemini base URL:    ${server.url}`);
  console.log(`  Inspector:          ${inspectorUrl(server.host, server.port, server.url)}`);
  if (config.store.type === 'postgres') {
    console.log(`  Recoveries:         ${recoveryStore.location}`);
    if (requestLog) console.log(`  Request log:        ${requestLog.source.location}`);
  }
  console.log(`Models (${models.length}): ${models.join(', ')}`);
  console.log(chalk.dim('Press Ctrl+C to stop.'));

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(chalk.dim(`${signal}: stopping; requests in flight have ${config.server.shutdownGraceMs} ms to finish.`));
      process.once(signal, () => process.exit(130));
      server.close().then(async (result) => {
        await keyPool.close();
        if (result.stopped > 0) console.log(`${result.stopped} unfinished request(s) kept as recoveries.`);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

/** The page's address; on a wildcard address, the loopback one a browser on this machine opens. */
function inspectorUrl(host: string, port: number, url: string): string {
  return host === '0.0.0.0' || host === '::' ? `http://127.0.0.1:${port}/ui` : `${url}/ui`;
}
