import { readFileSync } from 'node:fs';
import type { UpstreamProtocol as Protocol } from './fake-protocol-upstream.js';

/**
 * docs/translation.md read as data: for each client protocol its request and response tables
 * (row label → one cell per upstream protocol), and the list of warning texts. The layout is the
 * one a reader sees; anything unexpected in it is an error here, so the page cannot drift into a
 * shape the test no longer reads.
 */
export const TRANSLATION_DOC_PATH = new URL('../../docs/translation.md', import.meta.url);

/** Upstream columns, in the order the tables have them. */
export const UPSTREAM_COLUMNS: ReadonlyArray<[Protocol, string]> = [
  ['openai-chat', 'OpenAI Chat'],
  ['anthropic-messages', 'Anthropic'],
  ['openai-responses', 'OpenAI Responses'],
  ['gemini', 'Gemini'],
];

const CLIENT_SECTIONS: Record<string, Protocol> = {
  'OpenAI Chat Completions clients': 'openai-chat',
  'Anthropic Messages clients': 'anthropic-messages',
  'OpenAI Responses clients': 'openai-responses',
  'Gemini clients': 'gemini',
};
const WARNING_TEXTS_SECTION = 'What the warnings header says';

/** One table cell: its mark, the backticked names before the note, and the note in parentheses. */
export interface DocCell {
  mark: string;
  names: string[];
  note?: string;
}

export type DocTable = Map<string, DocCell[]>;

export interface TranslationDoc {
  requests: Record<Protocol, DocTable>;
  responses: Record<Protocol, DocTable>;
  /** Warning texts as listed, `<…>` standing for values. */
  warningTexts: string[];
}

export function readTranslationDoc(): TranslationDoc {
  return parseTranslationDoc(readFileSync(TRANSLATION_DOC_PATH, 'utf8'));
}

export function parseTranslationDoc(markdown: string): TranslationDoc {
  const doc: TranslationDoc = { requests: {} as TranslationDoc['requests'], responses: {} as TranslationDoc['responses'], warningTexts: [] };
  let section: string | undefined;
  let table: DocTable | undefined;
  let client: Protocol | undefined;
  let headerSeen = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      client = CLIENT_SECTIONS[section];
      table = undefined;
      continue;
    }
    if (line.startsWith('### ') && client) {
      const kind = line.startsWith('### Requests') ? 'requests' : line.startsWith('### Responses') ? 'responses' : undefined;
      if (!kind) throw new Error(`docs/translation.md: unexpected heading '${line}' under ${section}`);
      table = new Map();
      doc[kind][client] = table;
      headerSeen = false;
      continue;
    }
    if (section === WARNING_TEXTS_SECTION && line.startsWith('- `')) {
      doc.warningTexts.push(line.slice(3, line.lastIndexOf('`')));
      continue;
    }
    if (!table || !client || !line.startsWith('|')) continue;
    const cells = line.slice(1, line.lastIndexOf('|')).split('|').map((cell) => cell.trim());
    if (!headerSeen) {
      checkHeader(cells, client);
      headerSeen = true;
      continue;
    }
    const [label, ...columns] = cells;
    // The separator line, and group rows (`| **Tools** | | | | |`).
    if (/^-+$/.test(label) || label.startsWith('**')) continue;
    if (columns.length !== UPSTREAM_COLUMNS.length) throw new Error(`docs/translation.md: row '${label}' of ${client} has ${columns.length} cells`);
    if (table.has(label)) throw new Error(`docs/translation.md: row '${label}' appears twice for ${client}`);
    table.set(label, columns.map(parseCell));
  }
  return doc;
}

function checkHeader(cells: string[], client: Protocol): void {
  const expected = ['feature', ...UPSTREAM_COLUMNS.map(([protocol, title]) => (protocol === client ? `${title} (passthrough)` : title))];
  if (JSON.stringify(cells) !== JSON.stringify(expected)) {
    throw new Error(`docs/translation.md: a table of ${client} has the columns ${cells.join(', ')}; expected ${expected.join(', ')}`);
  }
}

/** `⚠ \`dropped seed\` (no such field)` → mark ⚠, names [dropped seed], note. */
export function parseCell(text: string): DocCell {
  const noteStart = text.indexOf(' (');
  const main = noteStart === -1 ? text : text.slice(0, noteStart);
  const note = noteStart === -1 ? undefined : text.slice(noteStart + 2, text.lastIndexOf(')'));
  return {
    mark: [...main.trim()][0] ?? '',
    names: [...main.matchAll(/`([^`]+)`/g)].map((match) => match[1]),
    ...(note !== undefined && { note }),
  };
}

/** A listed warning text as a pattern: `<…>` matches any value. */
export function warningTextPattern(text: string): RegExp {
  const parts = text.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+?')}$`);
}
