/**
 * Model-name globs, as aliases and routes write them: `*` any text, `?` one character, the rest
 * literal. Brackets and braces are refused rather than taken literally: a user who writes
 * `claude-{haiku,sonnet}` expects a choice, and a silent literal match would never fire.
 */
export function compileGlob(pattern: string): RegExp {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/** Why a glob cannot be used, or undefined when it can. */
export function globProblem(pattern: string): string | undefined {
  if (pattern === '') return 'an empty glob matches nothing';
  if (/[[\]{}]/.test(pattern)) return `'${pattern}' is not a glob this config understands: only * (any text) and ? (one character) are wildcards`;
  return undefined;
}
