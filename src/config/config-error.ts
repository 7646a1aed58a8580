/** An invalid config file: names the file and the field at fault. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string | undefined,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(`${file ?? 'config'}${field ? `: ${field}` : ''}: ${detail}`);
  }
}
