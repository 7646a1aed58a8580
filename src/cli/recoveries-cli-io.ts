/**
 * Everything the recoveries commands touch outside the store, passed in so tests run the real
 * commands in-process with captured output, a chosen TTY-ness and a fixed clock.
 */
export interface RecoveriesCliOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface RecoveriesCliIo {
  stdout: RecoveriesCliOutput;
  stderr: RecoveriesCliOutput;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The config file named with `--config`; none: $SWITCHYARD_HOME/config.json, when there is one. */
  configPath?: string;
  /** Milliseconds since the epoch, for ages in the table. */
  now(): number;
  /** Records the exit code of a command that ran to its end (process.exitCode by default). */
  setExitCode(code: number): void;
  /**
   * Ends at once, for commander's usage errors and help (process.exit by default, as commander
   * itself does). Must not return.
   */
  exit(code: number): never;
}

/**
 * The process's own streams, read when first used: touching `process.stdin` or `process.stdout`
 * sets up a stream (a few ms of every command's start, `--help` included).
 */
const processIo: RecoveriesCliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  get env() {
    return process.env;
  },
  now: () => Date.now(),
  setExitCode: (code) => {
    process.exitCode = code;
  },
  exit: (code) => process.exit(code),
};

export function createProcessCliIo(overrides: Partial<RecoveriesCliIo> = {}): RecoveriesCliIo {
  // Own properties over the process's: an override never touches the stream it replaces.
  return Object.defineProperties(Object.create(processIo) as RecoveriesCliIo, Object.getOwnPropertyDescriptors(overrides));
}

/** Exit codes of every `gateway recoveries` command. */
export const RECOVERIES_EXIT = { ok: 0, notFound: 1, usage: 2 } as const;
