import { pino, type Logger } from 'pino';

export type { Logger };

/** Pretty lines on a terminal, JSON lines otherwise (journald, docker, files). */
export function createLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
  if (pretty) {
    return pino({
      level,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } },
    });
  }
  return pino({ level });
}
