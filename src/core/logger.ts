import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Structured logs; one child per domain (`log.child({ domain: 'streams' })`). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
