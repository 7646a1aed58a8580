/**
 * Transpiles the non-test .ts files named in `sources` (files, or folders taken whole; relative to
 * projectRoot) into outputFolder, keeping their paths. Returns outputFolder.
 */
export function transpileForChildProcesses(projectRoot: string, sources: string[], outputFolder: string): Promise<string>;
