import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import type { GatewayConfig } from '../../config/config-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { Gateway } from '../../gateway/create-gateway.js';
import type { JsonObject } from '../../protocols/read-fields.js';
import { createAuthenticator, extractApiKey, type Authenticator, type KeyPlaces } from '../authenticate.js';
import { readJsonBody } from '../read-request-body.js';

/** The header the page sends its token in: a cross-site form or `<img>` cannot set a header. */
export const PAGE_TOKEN_HEADER = 'x-switchyard-page-token';

/** Whose requests and records a caller of the page's API sees: one user's, or (admin) everyone's. */
export interface PageViewer {
  /** Undefined: every user (an admin key, or no keys configured). */
  user: string | undefined;
  admin: boolean;
  keysRequired: boolean;
}

/**
 * The checks of the page's API: the page's token (new at each launch, given to the page at
 * load), a matching `Origin` when the browser sends one (always for a state change), a JSON body
 * for a state change (a cross-site `text/plain` form post fails), and with `keys` configured, a key.
 */
export class PageGuard {
  readonly token = randomBytes(24).toString('base64url');
  readonly #tokenBytes = Buffer.from(this.token);
  readonly #gateway: Gateway;
  readonly #places: KeyPlaces;
  readonly #authenticators = new WeakMap<GatewayConfig, Authenticator>();

  constructor(gateway: Gateway, places: KeyPlaces) {
    this.#gateway = gateway;
    this.#places = places;
  }

  /** A read: token, Origin when sent, key. */
  view(event: H3Event): PageViewer {
    this.#checkToken(event);
    const origin = event.req.headers.get('origin');
    if (origin !== null) this.#checkOrigin(event, origin);
    return this.#viewer(event);
  }

  /** A state change: token, Origin (required), key, and a JSON object body. */
  async change(event: H3Event): Promise<{ viewer: PageViewer; body: JsonObject }> {
    this.#checkToken(event);
    this.#checkOrigin(event, event.req.headers.get('origin'));
    const viewer = this.#viewer(event);
    const contentType = event.req.headers.get('content-type');
    if (contentType === null || !/^application\/json\b/i.test(contentType.trim())) {
      throw new GatewayError('unsupported_media_type', 'The page\'s changes are sent as application/json.');
    }
    const body = await readJsonBody(event, 64 * 1024);
    return { viewer, body: body.json };
  }

  #checkToken(event: H3Event): void {
    const sent = event.req.headers.get(PAGE_TOKEN_HEADER);
    const bytes = sent === null ? undefined : Buffer.from(sent);
    if (bytes === undefined || bytes.length !== this.#tokenBytes.length || !timingSafeEqual(bytes, this.#tokenBytes)) {
      throw new GatewayError('permission', 'The inspector\'s API answers the inspector page only: reload /ui.');
    }
  }

  #checkOrigin(event: H3Event, origin: string | null): void {
    // The Host was checked against the allowed ones before any route ran.
    const host = event.req.headers.get('host');
    if (origin === null || host === null || origin.toLowerCase() !== `http://${host.toLowerCase()}`) {
      throw new GatewayError('permission', 'Cross-origin requests to the inspector are refused.');
    }
  }

  #viewer(event: H3Event): PageViewer {
    const config = this.#gateway.config();
    if (config.keys.length === 0) return { user: undefined, admin: true, keysRequired: false };
    let authenticator = this.#authenticators.get(config);
    if (!authenticator) {
      authenticator = createAuthenticator(config.keys, 'The inspector needs one of the configured keys.');
      this.#authenticators.set(config, authenticator);
    }
    const key = extractApiKey((name) => event.req.headers.get(name), () => event.url.searchParams, this.#places);
    const { user, admin } = authenticator.authenticate(key);
    return { user: admin ? undefined : user, admin, keysRequired: true };
  }
}
