import { describe, expect, it } from 'vitest';
import { UPSTREAM_PROTOCOLS as PROTOCOLS, type UpstreamProtocol as Protocol } from './helpers/fake-protocol-upstream.js';
import { RESPONSE_FEATURES } from './helpers/response-features.js';
import { readTranslationDoc, UPSTREAM_COLUMNS, warningTextPattern, type DocCell } from './helpers/translation-doc.js';
import { combineProbeBodies, FEATURE_PROBES } from './helpers/translation-probes.js';
import { translateRequest, warningHeaderText, warningKey, type TranslationOutcome } from './helpers/translate-request.js';

/**
 * Keeps docs/translation.md true. Every request row is a probe (test/helpers/translation-probes.ts):
 * a request of the client's protocol that uses the feature, decoded by the client's codec and
 * encoded by the upstream's (or passed through), whose warnings and 400s must be what the cell
 * says. Every response row is worked out from recorded upstream answers (response-features.ts).
 */
const doc = readTranslationDoc();
const UPSTREAMS = UPSTREAM_COLUMNS.map(([protocol]) => protocol);

/** A cell as the test compares it: the mark and the warning names or the 400's param. */
function describeDocCell(cell: DocCell): string {
  // ○ is "not sent, without a warning": to the code that is the same as ✓.
  const mark = cell.mark === '○' ? '✓' : cell.mark;
  if (mark === '✗' && cell.names.length > 0) return `✗ 400 ${cell.names[0]}`;
  return [mark, ...[...cell.names].sort()].join(' ');
}

function describeOutcome(outcome: TranslationOutcome): string {
  if (outcome.kind === 'rejected') return `✗ ${outcome.status} ${outcome.param}`;
  if (outcome.warnings.length === 0) return '✓';
  return ['⚠', ...outcome.warnings.map(warningKey).sort()].join(' ');
}

/** The probes of one client protocol, by row. */
function probesOf(client: Protocol): Array<[string, Record<string, unknown>]> {
  return Object.entries(FEATURE_PROBES).flatMap(([row, probe]) => (probe[client] ? [[row, probe[client]] as [string, Record<string, unknown>]] : []));
}

/**
 * Rows whose probes make one feature-rich request together: rows that exclude each other (two
 * reasoning settings) or stop at a 400 are left out, and the interactions that follow from
 * combining (sampling while reasoning) have rows of their own.
 */
const FEATURE_RICH_ROWS = [
  'system prompt',
  'multi-turn history',
  'image by URL',
  'image, base64',
  'PDF, base64',
  'PDF by URL',
  'audio input',
  'function tools',
  'strict tool schemas',
  'parallel tool calls off',
  'tool calls and results in history',
  'tool result with an image',
  'tool result marked as error',
  'structured output: JSON schema',
  'stop sequences',
  'max tokens',
  'temperature, top_p',
  'top_k',
  'penalties, seed',
  'reasoning effort',
  'temperature while reasoning',
  'top_k while reasoning',
  'end-user id',
  'metadata',
  'vendor built-in tools',
  'vendor-only fields',
  'prompt-cache breakpoints',
];

describe.each(PROTOCOLS)('docs/translation.md, %s clients', (client) => {
  const requests = doc.requests[client];
  const responses = doc.responses[client];

  it('has a request row for each feature the protocol can say, and a response row for each response feature', () => {
    expect([...requests.keys()].sort()).toEqual(probesOf(client).map(([row]) => row).sort());
    expect([...responses.keys()].sort()).toEqual(Object.keys(RESPONSE_FEATURES).sort());
  });

  it.each(probesOf(client))('request row "%s" says what reaches each upstream', (row, body) => {
    const documented = requests.get(row)!.map(describeDocCell);
    const actual = UPSTREAMS.map((upstream) => describeOutcome(translateRequest(client, upstream, body)));
    expect(actual).toEqual(documented);
  });

  it.each(Object.keys(RESPONSE_FEATURES))('response row "%s" says what the client gets from each upstream', (row) => {
    const documented = responses.get(row)!.map(describeDocCell);
    const actual = UPSTREAMS.map((upstream) => {
      const outcome = RESPONSE_FEATURES[row](client, upstream);
      return [outcome.symbol, ...(outcome.keys ?? []).sort()].join(' ');
    });
    expect(actual).toEqual(documented);
  });

  it('a feature-rich request gives each upstream exactly the warnings of its rows together', () => {
    const rows = FEATURE_RICH_ROWS.filter((row) => FEATURE_PROBES[row][client]);
    const body = combineProbeBodies(rows.map((row) => FEATURE_PROBES[row][client]!));
    UPSTREAMS.forEach((upstream, column) => {
      const outcome = translateRequest(client, upstream, body);
      expect(outcome.kind, `${client} → ${upstream}`).toBe('sent');
      const documented = new Set(rows.flatMap((row) => requests.get(row)![column].names));
      const produced = new Set(outcome.kind === 'sent' ? outcome.warnings.map(warningKey) : []);
      expect([...produced].sort(), `${client} → ${upstream}`).toEqual([...documented].sort());
    });
  });
});

describe('docs/translation.md, warning texts', () => {
  const produced = new Set<string>();
  for (const client of PROTOCOLS) {
    for (const [, body] of probesOf(client)) {
      for (const upstream of UPSTREAMS) {
        const outcome = translateRequest(client, upstream, body);
        if (outcome.kind === 'sent') for (const warning of outcome.warnings) produced.add(warningHeaderText(warning));
      }
    }
  }
  const patterns = doc.warningTexts.map((text) => ({ text, pattern: warningTextPattern(text) }));

  it('lists every text the warnings header carries for the rows of the tables', () => {
    const unlisted = [...produced].filter((text) => !patterns.some(({ pattern }) => pattern.test(text)));
    expect(unlisted).toEqual([]);
  });

  it('lists no text that the rows never produce', () => {
    const unproduced = patterns.filter(({ pattern }) => ![...produced].some((text) => pattern.test(text))).map(({ text }) => text);
    expect(unproduced).toEqual([]);
  });
});
