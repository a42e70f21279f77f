import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger } from 'pino';

/**
 * JSON logs, one line per event, with the service name and, inside a traced operation, its trace and span
 * ids, so that a log line leads to its trace.
 */
export function createLogger(
  service: string,
  level: LevelWithSilent = 'info',
  /** Where lines go (stdout unless given; tests read them from memory). */
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
