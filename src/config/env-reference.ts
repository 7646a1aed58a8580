/** Reports a problem with a field of the config: throws a ConfigError naming the file and the field. */
export type Fail = (field: string | undefined, detail: string) => never;

/** `"$NAME"` or `"${NAME}"` reads the environment; a missing variable is an error naming both. */
export function resolveEnvReference(value: string, env: Record<string, string | undefined>, field: string, fail: Fail): string {
  const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(value);
  if (!match) return value;
  const name = match[1] ?? match[2];
  const resolved = env[name];
  if (resolved === undefined || resolved === '') fail(field, `refers to the environment variable ${name}, which is not set`);
  return resolved!;
}
