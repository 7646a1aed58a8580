import type { Protocol } from '../core/protocol.js';
import type { ProtocolDescriptor } from './protocol-descriptor.js';

/** The provider type that is not a protocol: the gateway's own mock models. */
const MOCK = 'mock';

/**
 * The protocols one server knows (`registry.ts` lists the built-in ones), by id. Looked up once
 * per request (a route holds its own descriptor), never per stream event.
 */
export class ProtocolRegistry {
  readonly descriptors: readonly ProtocolDescriptor[];
  /** Whose error envelope answers what belongs to no protocol: the first one. */
  readonly fallback: ProtocolDescriptor;
  readonly #byId = new Map<Protocol, ProtocolDescriptor>();
  readonly #segments: Array<{ descriptor: ProtocolDescriptor; segments: string[] }> = [];

  constructor(descriptors: readonly ProtocolDescriptor[]) {
    if (descriptors.length === 0) throw new Error('A protocol registry needs at least one protocol.');
    this.descriptors = descriptors;
    this.fallback = descriptors[0];
    const defaultModelKeys = new Set<string>();
    for (const descriptor of descriptors) {
      if (descriptor.id === MOCK || this.#byId.has(descriptor.id)) throw new Error(`Protocol id '${descriptor.id}' is taken.`);
      if (defaultModelKeys.has(descriptor.defaultModelKey)) throw new Error(`Default-model key '${descriptor.defaultModelKey}' is taken.`);
      this.#byId.set(descriptor.id, descriptor);
      defaultModelKeys.add(descriptor.defaultModelKey);
      for (const route of descriptor.routes) this.#segments.push({ descriptor, segments: staticSegments(route.path) });
    }
  }

  /** The descriptor of a protocol id that came from a validated config or a route. */
  get(id: Protocol): ProtocolDescriptor {
    const descriptor = this.#byId.get(id);
    if (!descriptor) throw new Error(`Unknown protocol '${id}'.`);
    return descriptor;
  }

  find(id: string): ProtocolDescriptor | undefined {
    return this.#byId.get(id);
  }

  /**
   * The protocol whose clients call a path no route serves, for the envelope of its 404: the one
   * with a route sharing the most leading segments with it (`/v1beta/…` is Gemini's, `/v1/messages/…`
   * Anthropic's); the first protocol when none shares more than another.
   */
  ofPath(pathname: string): ProtocolDescriptor {
    const segments = pathname.split('/').filter(Boolean);
    let best: ProtocolDescriptor | undefined;
    let bestShared = 0;
    for (const entry of this.#segments) {
      let shared = 0;
      while (shared < segments.length && shared < entry.segments.length && segments[shared] === entry.segments[shared]) shared += 1;
      if (shared > bestShared) {
        best = entry.descriptor;
        bestShared = shared;
      } else if (shared === bestShared && shared > 0 && entry.descriptor !== best) {
        // Two protocols share as much of it: neither owns the path.
        best = undefined;
      }
    }
    return best ?? this.fallback;
  }
}

/** The whole segments of a route's path before its `{model}`. */
function staticSegments(path: string): string[] {
  const open = path.indexOf('{');
  const fixed = open === -1 ? path : path.slice(0, path.lastIndexOf('/', open));
  return fixed.split('/').filter(Boolean);
}
