import pg from 'pg';
import type { KeyState, KeyStateScope, KeyStateStore } from '../providers/shared-key-pool.js';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { migratePostgres } from './postgres-migrations.js';

export interface PostgresKeyStatesOptions {
  /** postgres://user:password@host:port/database; its password is never shown. */
  url: string;
  log: (message: string) => void;
}

/** Rows changed this long before the last look are read again: a transaction's now() is its start. */
const CHANGED_OVERLAP_MS = 5000;

// One row per key that was ever set aside or rested, under one provider's config: a refusal and a
// rest add up, and of two rests the later end holds, whichever instance wrote last.
/**
 * States no instance has written for a month, forgotten when an instance first reaches the
 * database: those of configs that changed since (a new config starts afresh anyway), and rests
 * long over. A key refused a month ago under a config still in use is tried once more, and set
 * aside again if it is still refused.
 */
const FORGET_STALE = "DELETE FROM switchyard_key_states WHERE updated_at < now() - interval '30 days'";

const WRITE = `INSERT INTO switchyard_key_states AS t (provider, config_hash, key_hash, set_aside, resting_until)
  VALUES ($1, $2, $3, $4, now() + $5::double precision * interval '1 millisecond')
  ON CONFLICT (provider, config_hash, key_hash) DO UPDATE SET
    set_aside = t.set_aside OR excluded.set_aside,
    resting_until = GREATEST(t.resting_until, excluded.resting_until),
    updated_at = now()`;

// The database's clock comes back with the rows, in one row of nulls when there are none; a rest
// comes back as what is left of it, on the same clock. Without $3, every state still in force.
const CHANGED_SINCE = `SELECT now() AS at, k.* FROM (SELECT 1) AS clock LEFT JOIN (
    SELECT t.provider, t.config_hash, t.key_hash, t.set_aside,
      (EXTRACT(EPOCH FROM t.resting_until - now()) * 1000)::double precision AS rest_ms
    FROM switchyard_key_states t
    JOIN unnest($1::text[], $2::text[]) AS scope (provider, config_hash) ON t.provider = scope.provider AND t.config_hash = scope.config_hash
    WHERE CASE WHEN $3::timestamptz IS NULL THEN t.set_aside OR t.resting_until > now() ELSE t.updated_at >= $3::timestamptz END
  ) AS k ON true`;

interface ChangedRow {
  at: Date;
  provider: string | null;
  config_hash: string;
  key_hash: string;
  set_aside: boolean;
  rest_ms: number | null;
}

/**
 * The key pools' states on PostgreSQL (`switchyard_key_states`, docs/team.md), for SharedKeyPool.
 * Two connections at most: a poll a second and the rare refusal or rate limit need no more, and
 * the recoveries store keeps its own. It outlives the database going away: a failed write or read
 * is logged once per outage (with the URL's password blanked), answered as false or undefined,
 * and the gateway's requests carry on from memory. The schema is brought up to date on first use,
 * and again after a failure, so that a database down when the gateway started is set up once back.
 */
export class PostgresKeyStates implements KeyStateStore {
  readonly #url: string;
  readonly #location: string;
  readonly #log: (message: string) => void;
  readonly #pool: pg.Pool;
  #prepared: Promise<unknown> | undefined;
  #down = false;

  constructor(options: PostgresKeyStatesOptions) {
    this.#url = options.url;
    this.#location = redactDatabaseUrl(options.url);
    this.#log = options.log;
    this.#pool = new pg.Pool({ connectionString: options.url, max: 2, connectionTimeoutMillis: 5000, query_timeout: 10_000 });
    // An idle connection the server drops (a restart) must not end the process; the next query reconnects.
    this.#pool.on('error', (error) => this.#failed('stay connected to', error));
  }

  async write(state: KeyState): Promise<boolean> {
    return this.#run('write to', false, () =>
      this.#pool.query(WRITE, [state.provider, state.configHash, state.keyHash, state.setAside, state.restMs ?? null]).then(() => true),
    );
  }

  async changedSince(since: Date | undefined, scopes: readonly KeyStateScope[]): Promise<{ states: KeyState[]; next: Date } | undefined> {
    return this.#run('read', undefined, async () => {
      const { rows } = await this.#pool.query<ChangedRow>(CHANGED_SINCE, [scopes.map((scope) => scope.provider), scopes.map((scope) => scope.configHash), since ?? null]);
      const states: KeyState[] = [];
      for (const row of rows) {
        if (row.provider === null) continue;
        states.push({ provider: row.provider, configHash: row.config_hash, keyHash: row.key_hash, setAside: row.set_aside, restMs: row.rest_ms ?? undefined });
      }
      return { states, next: new Date(rows[0].at.getTime() - CHANGED_OVERLAP_MS) };
    });
  }

  /** Waits for the queries in flight, then closes every connection. */
  async close(): Promise<void> {
    await this.#pool.end();
  }

  async #run<T, F>(action: string, failed: F, work: () => Promise<T>): Promise<T | F> {
    try {
      this.#prepared ??= migratePostgres(this.#pool).then(() => this.#pool.query(FORGET_STALE));
      await this.#prepared;
      const result = await work();
      if (this.#down) {
        this.#down = false;
        this.#log(`key pools: the database ${this.#location} answers again; the instances share their keys' states again`);
      }
      return result;
    } catch (error) {
      this.#prepared = undefined;
      this.#failed(action, error);
      return failed;
    }
  }

  #failed(action: string, error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    const detail = redactDatabaseText(error instanceof Error ? error.message : String(error), this.#url);
    this.#log(`key pools: cannot ${action} the database ${this.#location} (${detail}): each instance carries on with the keys' states it knows, and they are shared again once it answers`);
  }
}
