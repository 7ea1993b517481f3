import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/*
 * The one place a role's logger is configured (issue 32, item 16). On a
 * terminal a person reads the lines: pino-pretty, coloured, local time, no
 * pid/hostname. Anywhere else (a file, a pipe, journald, a log shipper, CI,
 * the tests) one JSON object per line, which is what tools parse.
 */

export interface RoleLoggerOptions {
  level: string;
  name: string;
}

/** Where the process runs, as the choice needs it (tests pass their own). */
export interface LogOutput {
  isTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** Pretty lines only for a person at a terminal: not under CI, not in tests. */
export function prettyLogs(output: LogOutput): boolean {
  const { env } = output;
  if (!output.isTTY) return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') return false;
  return env.NODE_ENV !== 'test' && env.VITEST === undefined;
}

/** pino-pretty as a synchronous stream in this thread (no transport worker): lines stay in order with stdout writes. */
function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  return pretty({ colorize: destination === undefined, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true, ...(destination ? { destination } : {}) });
}

/** A role's logger: pretty on a terminal, JSON otherwise. */
export function createRoleLogger(options: RoleLoggerOptions, output: LogOutput = { isTTY: process.stdout.isTTY === true, env: process.env }, destination?: DestinationStream): Logger {
  const base = { level: options.level, name: options.name };
  if (prettyLogs(output)) return pino(base, prettyStream(destination));
  return destination ? pino(base, destination) : pino(base);
}
