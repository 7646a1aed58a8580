import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * Vertex AI can stream a function call's arguments (`streamFunctionCallArguments`): the call opens
 * with `functionCall {name, willContinue: true}`, each argument then arrives as `partialArgs`
 * `[{jsonPath, stringValue | numberValue | boolValue | nullValue, willContinue}]` (a string in
 * several pieces, `willContinue` on all but its last), and an empty `functionCall {}` (or one
 * without `willContinue`) closes it. This builds the arguments object from those pieces.
 */
export interface PartialArgsAssembler {
  apply(partialArgs: unknown[]): void;
  args(): JsonObject;
}

export function createGeminiPartialArgsAssembler(): PartialArgsAssembler {
  const root: JsonObject = {};
  /** Paths whose string value continues in the next piece. */
  const continuing = new Set<string>();
  return {
    apply(partialArgs) {
      for (const entry of partialArgs) {
        if (!isJsonObject(entry) || typeof entry.jsonPath !== 'string') continue;
        const path = parseJsonPath(entry.jsonPath);
        if (!path || path.length === 0) continue;
        let value: unknown;
        if (typeof entry.stringValue === 'string') {
          const existing = getAtPath(root, path);
          value = continuing.has(entry.jsonPath) && typeof existing === 'string' ? existing + entry.stringValue : entry.stringValue;
        } else if (typeof entry.numberValue === 'number') value = entry.numberValue;
        else if (typeof entry.boolValue === 'boolean') value = entry.boolValue;
        else if (entry.nullValue !== undefined) value = null;
        else continue;
        setAtPath(root, path, value);
        if (entry.willContinue === true) continuing.add(entry.jsonPath);
        else continuing.delete(entry.jsonPath);
      }
    },
    args: () => root,
  };
}

/** `$.a.b[0]['c d']` → ['a', 'b', 0, 'c d'] (the RFC 9535 subset Vertex emits); undefined if malformed. */
export function parseJsonPath(jsonPath: string): Array<string | number> | undefined {
  if (!jsonPath.startsWith('$')) return undefined;
  const segments: Array<string | number> = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < jsonPath.length) {
    const match = pattern.exec(jsonPath);
    if (!match) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push((match[3] ?? match[4]).replace(/\\(.)/g, '$1'));
  }
  return segments;
}

type Container = JsonObject | unknown[];

function getAtPath(root: JsonObject, path: Array<string | number>): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function setAtPath(root: JsonObject, path: Array<string | number>, value: unknown): void {
  let current: Container = root;
  path.forEach((segment, position) => {
    const record = current as Record<string | number, unknown>;
    if (position === path.length - 1) {
      record[segment] = value;
      return;
    }
    const next = record[segment];
    if (typeof next !== 'object' || next === null) record[segment] = typeof path[position + 1] === 'number' ? [] : {};
    current = record[segment] as Container;
  });
}
