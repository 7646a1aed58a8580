import type { RouteRule, RouteWhen } from '../config/config-types.js';
import type { GenerateRequest } from '../core/generate-request.js';
import type { Protocol } from '../core/protocol.js';

/** What a route's `when` reads of one request. */
export interface RouteFacts {
  /** The model name as the client asked for it. */
  model: string;
  protocol: Protocol;
  request: GenerateRequest;
  /** The prompt's tokens; counted only when some rule or model limit needs them. */
  inputTokens: number | undefined;
  header: (name: string) => string | undefined;
}

/** The first route whose conditions all hold, in config order. */
export function matchRoute(routes: readonly RouteRule[], facts: RouteFacts): RouteRule | undefined {
  for (const route of routes) if (holds(route.when, facts)) return route;
  return undefined;
}

function holds(when: RouteWhen, facts: RouteFacts): boolean {
  if (when.model !== undefined && !when.model.test(facts.model)) return false;
  if (when.protocol !== undefined && when.protocol !== facts.protocol) return false;
  if (when.minInputTokens !== undefined && (facts.inputTokens ?? 0) < when.minInputTokens) return false;
  if (when.thinking !== undefined && when.thinking !== asksForThinking(facts.request)) return false;
  if (when.images !== undefined && when.images !== hasImage(facts.request)) return false;
  if (when.tools !== undefined && when.tools !== facts.request.tools.length > 0) return false;
  if (when.header !== undefined) {
    for (const [name, condition] of Object.entries(when.header)) {
      const value = facts.header(name);
      if (typeof condition === 'boolean' ? condition !== (value !== undefined) : value === undefined || !condition.test(value)) return false;
    }
  }
  return true;
}

/** Whether the request asks the model to reason (an effort, a budget, or thinking switched on). */
function asksForThinking(request: GenerateRequest): boolean {
  const reasoning = request.reasoning;
  if (reasoning === undefined || reasoning.enabled === false) return false;
  if (reasoning.enabled === true) return true;
  if (reasoning.effort !== undefined) return reasoning.effort !== 'none';
  return (reasoning.budgetTokens ?? 0) > 0;
}

function hasImage(request: GenerateRequest): boolean {
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'file' && part.mediaType.startsWith('image/')) return true;
      if (part.type === 'tool-result' && part.content.some((inner) => inner.type === 'file' && inner.mediaType.startsWith('image/'))) return true;
    }
  }
  return false;
}
