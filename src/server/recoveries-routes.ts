import type { H3, H3Event } from 'h3';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import {
  deleteAllRecoveriesResponse,
  deleteRecoveryResponse,
  getRecoveryResponse,
  listRecoveriesResponse,
  lookupRecoveriesResponse,
  type RecoveriesApiResponse,
} from '../recoveries/recoveries-api.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse, jsonResponse } from './to-http-response.js';

/**
 * The recoveries API; every record belongs to the user of the key. It belongs to no protocol:
 * errors come in the envelope of `errors` (the registry's first protocol).
 */
export function registerRecoveriesRoutes(app: H3, gateway: Gateway, store: RecoveryStore, authenticate: AuthenticateRequest, errors: ProtocolDescriptor): void {
  const handle = (run: (event: H3Event, user: string) => Promise<RecoveriesApiResponse>) => async (event: H3Event) => {
    try {
      const { user } = authenticate(event);
      const response = await run(event, user);
      return jsonResponse(event, response.body, response.status);
    } catch (error) {
      return errorResponse(event, errors, error);
    }
  };
  const id = (event: H3Event) => decodeURIComponent(event.url.pathname.slice('/v1/recoveries/'.length));
  app.get('/v1/recoveries', handle((_event, user) => listRecoveriesResponse(store, user)));
  app.post(
    '/v1/recoveries/lookup',
    handle(async (event, user) => {
      const body = await readJsonBody(event, gateway.config().server.bodyLimitBytes);
      return lookupRecoveriesResponse(store, user, body.json);
    }),
  );
  app.get('/v1/recoveries/**', handle((event, user) => getRecoveryResponse(store, user, id(event))));
  app.delete('/v1/recoveries/**', handle((event, user) => deleteRecoveryResponse(store, user, id(event))));
  app.delete(
    '/v1/recoveries',
    handle((event, user) =>
      deleteAllRecoveriesResponse(store, user, {
        all: event.url.searchParams.get('all') ?? undefined,
        dry_run: event.url.searchParams.get('dry_run') ?? undefined,
      }),
    ),
  );
}
