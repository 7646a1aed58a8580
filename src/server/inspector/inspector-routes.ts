import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { HTTPResponse, type H3, type H3Event } from 'h3';
import { GatewayError } from '../../core/gateway-error.js';
import { redactSecrets } from '../../core/redact-secrets.js';
import type { Gateway } from '../../gateway/create-gateway.js';
import type { RequestLogSource } from '../../log/request-log-store.js';
import { toApiSummary, toRecoveryDetail } from '../../recoveries/recoveries-api.js';
import type { RecoveryStore } from '../../recoveries/recovery-store.js';
import type { ProtocolDescriptor } from '../../protocols/protocol-descriptor.js';
import type { KeyPlaces } from '../authenticate.js';
import { errorResponse, jsonResponse, requestIdHeaders } from '../to-http-response.js';
import { InspectorFeed } from './inspector-feed.js';
import type { InspectorObserver } from './inspector-observer.js';
import { PageGuard, type PageViewer } from './page-guard.js';
import { summarizeUsageByDay } from './usage-by-day.js';

export interface InspectorRoutesOptions {
  gateway: Gateway;
  /** The requests kept for the page; none when `inspector.keep` is 0. */
  inspector: InspectorObserver | undefined;
  recoveryStore: RecoveryStore;
  /** The request log, for the usage chart; none: the chart is empty. */
  requestLog: RequestLogSource | undefined;
  places: KeyPlaces;
  /** Whose error envelope the API's errors come in (it belongs to no protocol). */
  errors: ProtocolDescriptor;
}

/** The page's files, shipped in the package beside `dist/` (no build step, no CDN). */
const ASSETS = new URL('../../../inspector-page/', import.meta.url);
const ASSET_TYPES: Record<string, string> = {
  'inspector.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};
const PAGE_HEADERS = {
  // Only the page's own files run, nothing frames it, and it leaks no address to links.
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
const HANDLED = Symbol.for('h3.handled');
const DAY_MS = 24 * 60 * 60 * 1000;

/** `/ui` (the inspector page and its files) and its API under `/ui/api/`. */
export function registerInspectorRoutes(app: H3, options: InspectorRoutesOptions): void {
  const { gateway, inspector, recoveryStore: store } = options;
  const guard = new PageGuard(gateway, options.places);
  const files = new Map<string, Promise<string>>();
  const asset = (name: string) => {
    let file = files.get(name);
    if (!file) files.set(name, (file = readFile(fileURLToPath(new URL(name, ASSETS)), 'utf8')));
    return file;
  };
  const api = (run: (event: H3Event) => unknown) => async (event: H3Event) => {
    try {
      return await run(event);
    } catch (error) {
      return errorResponse(event, options.errors, error);
    }
  };

  const page = async (event: H3Event) => {
    const html = (await asset('index.html')).replace('__PAGE_TOKEN__', guard.token);
    return new HTTPResponse(html, { status: 200, headers: requestIdHeaders(event, PAGE_HEADERS, { 'content-type': 'text/html; charset=utf-8' }) });
  };
  app.get('/ui', page);
  app.get('/ui/', page);
  app.get('/ui/assets/**', async (event) => {
    const name = event.url.pathname.slice('/ui/assets/'.length);
    const type = ASSET_TYPES[name];
    if (type === undefined) return errorResponse(event, options.errors, notFound(`No inspector file '${name.slice(0, 100)}'.`));
    return new HTTPResponse(await asset(name), { status: 200, headers: requestIdHeaders(event, PAGE_HEADERS, { 'content-type': type }) });
  });

  app.get(
    '/ui/api/session',
    api((event) => {
      const viewer = guard.view(event);
      return jsonResponse(event, { admin: viewer.admin, keys_required: viewer.keysRequired, keep: inspector?.keep ?? 0, user: viewer.user ?? null });
    }),
  );
  app.get(
    '/ui/api/requests',
    api((event) => {
      const viewer = guard.view(event);
      return jsonResponse(event, { version: inspector?.version ?? 0, rows: inspector?.rows(viewer.user) ?? [] });
    }),
  );
  app.get(
    '/ui/api/requests/**',
    api(async (event) => {
      const viewer = guard.view(event);
      const id = decodeURIComponent(event.url.pathname.slice('/ui/api/requests/'.length));
      const found = inspector?.find(id, viewer.user);
      if (found === undefined) return errorResponse(event, options.errors, notFound(`The inspector no longer holds request ${id.slice(0, 100)} (it keeps the last ${inspector?.keep ?? 0}).`));
      const { outcome, row } = found;
      const secrets = outcome.secrets();
      const upstreamBody = outcome.upstreamRequestBodyText();
      const recovery = await store.get(id, viewer.user).catch(() => undefined);
      return jsonResponse(event, {
        row,
        request_body: redactSecrets(outcome.requestBodyText(), secrets),
        upstream_request_body: upstreamBody === undefined ? null : redactSecrets(upstreamBody, secrets),
        response_body: redactSecrets(outcome.responseBodyText(), secrets),
        warnings: outcome.warnings,
        attempts: outcome.attempts,
        error: outcome.error ? { code: outcome.error.code, status: outcome.error.status, message: redactSecrets(outcome.error.message, secrets) } : null,
        recovery: recovery === undefined ? null : { request_id: recovery.request_id, state: recovery.state },
      });
    }),
  );
  app.get(
    '/ui/api/feed',
    api((event) => {
      const viewer = guard.view(event);
      const response = (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
      if (inspector === undefined || response === undefined) return jsonResponse(event, { rows: [] });
      const since = Number(event.url.searchParams.get('since') ?? 0);
      return new InspectorFeed(response, inspector, viewer.user, Number.isFinite(since) ? since : 0).run(requestIdHeaders(event)).then(() => HANDLED);
    }),
  );

  app.get(
    '/ui/api/recoveries',
    api(async (event) => {
      const viewer = guard.view(event);
      const items = (await store.list(viewer.user)).map(toApiSummary);
      return jsonResponse(event, { count: items.length, items });
    }),
  );
  app.get(
    '/ui/api/recoveries/**',
    api(async (event) => {
      const viewer = guard.view(event);
      const id = decodeURIComponent(event.url.pathname.slice('/ui/api/recoveries/'.length));
      const record = await store.get(id, viewer.user);
      if (record === undefined) return errorResponse(event, options.errors, notFound(`No recovery record ${id.slice(0, 100)}.`));
      return jsonResponse(event, toRecoveryDetail(record));
    }),
  );
  app.post(
    '/ui/api/recoveries/delete',
    api(async (event) => {
      const { viewer, body } = await guard.change(event);
      return jsonResponse(event, await deleteRecoveries(store, viewer, body));
    }),
  );

  app.get(
    '/ui/api/usage',
    api(async (event) => {
      const viewer = guard.view(event);
      const days = event.url.searchParams.get('days') === '30' ? 30 : 7;
      const now = Date.now();
      const since = (Math.floor(now / DAY_MS) - days + 1) * DAY_MS;
      // Summed where the log is: on a team's database, only the sums per day and model travel.
      const groups = options.requestLog === undefined ? [] : await options.requestLog.sumUsageByDayAndModel({ since, user: viewer.user });
      return jsonResponse(event, summarizeUsageByDay(groups, days, now));
    }),
  );
}

/** `{ "request_id": "..." }` deletes one record; `{ "all": true, "confirm": true }` every visible one. */
async function deleteRecoveries(store: RecoveryStore, viewer: PageViewer, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof body.request_id === 'string') {
    const deleted = await store.remove(body.request_id, viewer.user);
    return { deleted: deleted ? 1 : 0 };
  }
  if (body.all === true && body.confirm === true) return { deleted: await store.removeAll(viewer.user) };
  throw new GatewayError('invalid_request', 'Send {"request_id": "..."} to delete one record, or {"all": true, "confirm": true} to delete all.');
}

function notFound(message: string): GatewayError {
  return new GatewayError('not_found', message);
}
