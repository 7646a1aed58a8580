// The PostgreSQL server of the team scenarios (docs/team.md): the one DATABASE_URL names, or else a
// throwaway one that `.ci/postgres start` starts for the run, stopped at its end. Nothing is ever
// written to the server's own databases: each scenario makes databases of its own, named
// `<prefix>_<random>` (the prefix is `switchyard_bench_<random>`, one per run), and drops them.
// What a killed child left behind goes too, by the prefix, when the run ends (also on Ctrl-C).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuSeconds } from './processes.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CI_POSTGRES = join(ROOT, '.ci', 'postgres');

/** Where Debian's packages put the server; what `.ci/postgres start` looks for. */
const hasServerBinaries = () => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/pg_ctl`));

/** The URL with its password blanked, as anything the bench prints shows it. */
function redact(text, url) {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL: nothing to blank but the text itself.
  }
  let redacted = text.replaceAll(url, '<database url>');
  if (password.length >= 3) redacted = redacted.replaceAll(password, '[redacted]').replaceAll(encodeURIComponent(password), '[redacted]');
  return redacted;
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of the same server's database `name`. */
function databaseUrl(adminUrl, name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `.ci/postgres start` (with `prefix`, e.g. taskset of every core) and reads the variables it exports. */
function startThrowawayServer(prefix, log) {
  return new Promise((resolve, reject) => {
    const [command, ...args] = [...prefix, CI_POSTGRES, 'start'];
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const exported = Object.fromEntries([...stdout.matchAll(/^export (\w+)='([^']*)'$/gm)].map((match) => [match[1], match[2]]));
      if (code === 0 && exported.DATABASE_URL && exported.SWITCHYARD_PG_DATA) {
        log(`  started a throwaway PostgreSQL (.ci/postgres start, data in ${exported.SWITCHYARD_PG_DATA})`);
        resolve(exported);
      } else {
        // A server may be half up: stop what is named, if anything.
        if (exported.SWITCHYARD_PG_DATA) spawnSync(CI_POSTGRES, ['stop'], { env: { ...process.env, SWITCHYARD_PG_DATA: exported.SWITCHYARD_PG_DATA }, stdio: 'ignore' });
        reject(new Error(`.ci/postgres start failed (exit ${code}): ${stderr.replace(/\s+/g, ' ').slice(-300)}`));
      }
    });
  });
}

/**
 * The server of this run, found (or started) on the first `get()`. `prefix`: the names of the
 * databases made (default a new `switchyard_bench_<random>`). `commandPrefix`: what `.ci/postgres
 * start` runs under, e.g. `taskset -c 0-1`: a server started by a pinned runner would inherit its core.
 */
export function postgresServer({ log = () => {}, prefix = `switchyard_bench_${randomBytes(4).toString('hex')}`, commandPrefix = [] } = {}) {
  let found;
  /** The environment of the throwaway server this run started (SWITCHYARD_PG_DATA), if any. */
  let throwaway;
  let adminUrl;

  const find = async () => {
    let url = process.env.DATABASE_URL;
    let origin = 'DATABASE_URL';
    if (!url) {
      if (!hasServerBinaries()) {
        return { reason: 'no PostgreSQL: DATABASE_URL is not set and no server is installed for .ci/postgres start (eval "$(.ci/postgres start)" installs and starts one)' };
      }
      try {
        throwaway = await startThrowawayServer(commandPrefix, log);
      } catch (error) {
        return { reason: `no PostgreSQL: DATABASE_URL is not set, and ${error.message}` };
      }
      url = throwaway.DATABASE_URL;
      origin = '.ci/postgres start';
    }
    try {
      const version = await withClient(url, async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
      adminUrl = url;
      return { url, origin, version };
    } catch (error) {
      return { reason: `PostgreSQL of ${origin} unreachable: ${redact(error.message, url)}` };
    }
  };

  /** `{ url, origin, version }` of a user who may create databases, or `{ reason }` there is none. */
  const get = () => {
    found ??= find();
    return found;
  };

  return {
    prefix,
    get,
    /** A database of its own: `{ name, url, drop() }`. */
    async createDatabase() {
      const server = await get();
      if (server.reason) throw new Error(server.reason);
      const name = `${prefix}_${randomBytes(3).toString('hex')}`;
      await withClient(server.url, (client) => client.query(`CREATE DATABASE ${name}`));
      // FORCE: a gateway killed mid-run may still hold connections (PostgreSQL 13 and newer).
      const drop = () => withClient(server.url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
      return { name, url: databaseUrl(server.url, name), drop };
    },
    /**
     * The CPU time of the server's processes that work for database `name`: its backends (a
     * gateway's connections) and the WAL writer, background writer and checkpointer, which write
     * for every database. `refresh()` lists them again (before each window: a pool may have
     * replaced a connection); `seconds()` reads /proc, NaN when the server is not on this machine.
     */
    databaseCpu(name) {
      let pids = [];
      return {
        async refresh() {
          const { rows } = await withClient(adminUrl, (client) =>
            client.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type IN ('walwriter', 'background writer', 'checkpointer')`, [name]),
          );
          // The pids are the server's: on another machine they name nothing here, or something else.
          pids = rows.map((row) => row.pid).filter((pid) => {
            try {
              return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
            } catch {
              return false;
            }
          });
        },
        seconds: () => (pids.length === 0 ? NaN : pids.reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0)),
      };
    },
    /** Drops what is left of this run's databases, then stops the server this run started. */
    async close() {
      if (adminUrl) {
        await withClient(adminUrl, async (client) => {
          const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${prefix}_`]);
          for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
          if (rows.length > 0) log(`  dropped ${rows.length} database(s) left by this run: ${rows.map((row) => row.datname).join(', ')}`);
        }).catch((error) => log(`  could not drop the databases ${prefix}_*: ${redact(error.message, adminUrl)}`));
      }
      if (throwaway) {
        const { SWITCHYARD_PG_DATA } = throwaway;
        throwaway = undefined;
        await new Promise((resolve) => spawn(CI_POSTGRES, ['stop'], { env: { ...process.env, SWITCHYARD_PG_DATA }, stdio: 'ignore' }).on('close', resolve).on('error', resolve));
      }
      adminUrl = undefined;
    },
    /** `close()` for an exiting process (Ctrl-C), where nothing asynchronous runs any more. */
    closeSync() {
      if (throwaway) {
        // Stopping the throwaway server removes its data, every database with it.
        spawnSync(CI_POSTGRES, ['stop'], { env: { ...process.env, SWITCHYARD_PG_DATA: throwaway.SWITCHYARD_PG_DATA }, stdio: 'ignore', timeout: 30_000 });
      } else if (adminUrl) {
        const script = `import pg from 'pg';
import { cpuSeconds } from './processes.mjs';
          const client = new pg.Client({ connectionString: process.env.ADMIN_URL });
          await client.connect();
          const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [process.env.PREFIX + '_']);
          for (const { datname } of rows) await client.query('DROP DATABASE IF EXISTS ' + datname + ' WITH (FORCE)');
          await client.end();`;
        spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ADMIN_URL: adminUrl, PREFIX: prefix }, stdio: 'ignore', timeout: 30_000 });
      }
      throwaway = undefined;
      adminUrl = undefined;
    },
  };
}
