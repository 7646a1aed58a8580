import type { RecoveryRecord } from './recovery-record.js';

/**
 * Characters of a body turned into JSON at a time. A record's bodies can be megabytes (a long
 * generation kept whole): `JSON.stringify` of a 5 MB record, then its conversion to bytes, held
 * the event loop, and with it every stream the gateway was serving, for 15-20 ms per write. A
 * piece of this size takes well under a millisecond, and the file is written piece by piece.
 */
const PIECE_CHARS = 256 * 1024;

/**
 * The record as JSON, in pieces to write one after another: together they are
 * `JSON.stringify(record)` with `request` and `response` last and each one's `body_raw` first (the
 * order `createRecoveryRecord` gives, so the text is the same), and no piece holds more than
 * about `pieceChars` characters of a body.
 */
export function* recordJsonPieces(record: RecoveryRecord, pieceChars = PIECE_CHARS): Generator<string> {
  const { request, response, ...head } = record;
  yield `${JSON.stringify(head).slice(0, -1)},"request":`;
  yield* objectJsonPieces(request, pieceChars);
  yield ',"response":';
  yield* objectJsonPieces(response, pieceChars);
  yield '}';
}

/** An object whose `body_raw` may be large, that field first. */
function* objectJsonPieces(object: { body_raw: string }, pieceChars: number): Generator<string> {
  const { body_raw: body, ...rest } = object;
  yield '{"body_raw":';
  yield* jsonStringPieces(body, pieceChars);
  const restJson = JSON.stringify(rest);
  yield restJson === '{}' ? '}' : `,${restJson.slice(1)}`;
}

/** `JSON.stringify(text)` in pieces of at most `pieceChars` characters of `text` each (one more to keep a pair whole when `pieceChars` is 1). */
export function* jsonStringPieces(text: string, pieceChars = PIECE_CHARS): Generator<string> {
  if (text.length <= pieceChars) {
    yield JSON.stringify(text);
    return;
  }
  yield '"';
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + pieceChars, text.length);
    // The two halves of a surrogate pair stay in one piece: alone, each would be escaped (`\ud83d`).
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += end - start > 1 ? -1 : 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
  yield '"';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
