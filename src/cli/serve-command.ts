import type { Command } from './commander.js';
import type { ServeOptions } from './run-serve.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Start the gateway on localhost (OpenAI Chat, Anthropic Messages, OpenAI Responses and Gemini on one port).')
    .option('--host <host>', 'address to listen on (default: 127.0.0.1, or server.host in the config)')
    .option('--port <port>', 'port to listen on; a taken port falls back to a free one (default: 4141, or server.port)')
    .option('--config <file>', 'config file (default: $SWITCHYARD_HOME/config.json, SWITCHYARD_HOME defaults to ~/.switchyard)')
    .option('--quiet', 'do not print a line per request on stderr (the request log is still kept)')
    .option('--log-bodies', 'keep request and response bodies in the request log, keys redacted (config: log.bodies)')
    .option('--store <url>', 'keep recoveries, the request log and key pools on this PostgreSQL database, shared with other instances: postgres://... (config: store; docs/team.md)')
    .action(async (options: ServeOptions) => {
      const { runServe } = await import('./run-serve.js');
      process.exitCode = await runServe(options);
    });
}
