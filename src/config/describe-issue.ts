// Turning the schema's issues into the config's error messages (`ConfigError`).
import type * as v from 'valibot';

/** A schema issue, with its whole path as keys. */
interface Issue {
  type: string;
  expected: string | null;
  received: string;
  message: string;
  path: PropertyKey[];
}

/**
 * The issue to report: a provider is an object or `false`, and when it is neither, the object's
 * own issue says what is wrong (not "expected (Object | false)").
 */
export function innermost(issue: v.GenericIssue, parent: PropertyKey[]): Issue {
  const own = (issue.path ?? []).map((item) => item.key as PropertyKey);
  const path = own.length >= parent.length && parent.every((key, index) => own[index] === key) ? own : [...parent, ...own];
  const branch = issue.type === 'union' ? issue.issues?.find((inner) => inner.type !== 'literal') : undefined;
  if (branch) return innermost(branch, path);
  return { type: issue.type, expected: issue.expected, received: issue.received, message: issue.message, path };
}

/** A schema issue's path as the docs name fields: `providers.x.models`, `keys[0].user`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`)).join('');
}

const EXPECTED: Record<string, string> = { Array: 'an array', array: 'an array', Object: 'an object', object: 'an object', string: 'a string', number: 'a number', boolean: 'true or false' };

export function describeIssue(issue: Issue): string {
  switch (issue.type) {
    case 'strict_object':
      if (issue.received === 'undefined') return 'missing';
      return `expected ${EXPECTED[issue.expected ?? ''] ?? issue.expected}, got ${issue.received}`;
    case 'min_value':
    case 'max_value':
      return `expected a number ${issue.expected}, got ${issue.received}`;
    case 'integer':
      return `expected a whole number, got ${issue.received}`;
    case 'picklist':
      return `expected one of ${(issue.expected ?? '').replace(/^\(|\)$/g, '').split(' | ').join(', ')}, got ${issue.received}`;
    case 'array':
    case 'object':
    case 'record':
    case 'string':
    case 'number':
    case 'boolean':
      return `expected ${EXPECTED[issue.type === 'record' ? 'object' : issue.type]}, got ${issue.received}`;
    default:
      return issue.message;
  }
}

