import type { RequestLogEntry } from './request-log.js';

/** A string JSON writes as it is between its quotes: printable ASCII without `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Distinct values kept quoted (users, models, upstreams, user agents); past this the cache starts over. */
const MAX_QUOTED = 512;
/** Longer values are quoted each time, not kept. */
const MAX_QUOTED_LENGTH = 256;

const quotedValues = new Map<string, string>();

/**
 * `JSON.stringify(entry)`, character for character, at about a third of its cost on Node 20: with
 * it the whole request log costs 12,000 instructions a request instead of 30,000, counted under
 * callgrind (bench/FINDINGS.md). Node 20's `JSON.stringify` looks up and escapes each of the 23
 * keys and every character of every value on each call; here the keys are part of the template,
 * the values that come back request after request (user, protocol, endpoint, model, upstream,
 * mode, user agent) are quoted once and kept, and the others are checked with one regular
 * expression each. Warnings are rare and free text: an entry with any goes to `JSON.stringify`.
 * A field added to `RequestLogEntry` must be added here too: the test compares with
 * `JSON.stringify` on entries of every field.
 */
export function encodeEntryLine(entry: RequestLogEntry): string {
  if (entry.warnings.length > 0) return JSON.stringify(entry);
  return (
    `{"request_id":${quoted(entry.request_id)},"time":${quoted(entry.time)},"user":${quotedAgain(entry.user)},` +
    `"protocol":${quotedAgain(entry.protocol)},"endpoint":${quotedAgain(entry.endpoint)},"model":${quotedAgain(entry.model)},` +
    `"upstream":${quotedAgain(entry.upstream)},"attempts":${number(entry.attempts)},"mode":${quotedAgain(entry.mode)},` +
    `"status":${number(entry.status)},"stream":${entry.stream},"duration_ms":${number(entry.duration_ms)},"ttfb_ms":${number(entry.ttfb_ms)},` +
    `"input_tokens":${number(entry.input_tokens)},"output_tokens":${number(entry.output_tokens)},"cached_tokens":${number(entry.cached_tokens)},` +
    `"cache_write_tokens":${number(entry.cache_write_tokens)},"reasoning_tokens":${number(entry.reasoning_tokens)},"cost_usd":${number(entry.cost_usd)},` +
    `"interrupted_reason":${quotedAgain(entry.interrupted_reason)},"resumed_from":${quotedAgain(entry.resumed_from)},"warnings":[],"user_agent":${quotedAgain(entry.user_agent)}}`
  );
}

/** A value seen once per request (an id, a time). */
function quoted(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A value that comes back from request to request: quoted the first time, then looked up. */
function quotedAgain(text: string | null): string {
  if (text === null) return 'null';
  let result = quotedValues.get(text);
  if (result === undefined) {
    result = JSON.stringify(text);
    if (text.length <= MAX_QUOTED_LENGTH) {
      if (quotedValues.size >= MAX_QUOTED) quotedValues.clear();
      quotedValues.set(text, result);
    }
  }
  return result;
}

/** As JSON writes a number: `null` when it is not finite (and when there is none). */
function number(value: number | null): string {
  return value === null || !Number.isFinite(value) ? 'null' : `${value}`;
}
