import { createRequire } from 'node:module';
import type * as CommanderModule from 'commander';

/**
 * commander, loaded as the CommonJS package it is. Imported as ESM, Node first runs its
 * CommonJS-export scanner over the package and resolves its `exports` map, about 20 ms of every
 * command's start (`gateway --help` included), for the same classes.
 */
const commander = createRequire(import.meta.url)('commander') as typeof CommanderModule;

export const Command = commander.Command;
export type Command = CommanderModule.Command;
export const CommanderError = commander.CommanderError;
export type CommanderError = CommanderModule.CommanderError;
export const Option = commander.Option;
export type Option = CommanderModule.Option;
