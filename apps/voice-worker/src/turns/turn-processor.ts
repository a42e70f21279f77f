import type { Worker } from 'bullmq';
import { createQueueWorker, type Redis } from '@fleet/queues';
import { contextFromTraceparent, inSpan } from '@fleet/telemetry';
import type { TurnService } from './turn-service';

/**
 * The `voice-turns` queue: parse (the registry validates the job data), run the turn, done. The turn runs in the
 * trace its producer started (the utterance, the API's text request), so its calls join that trace.
 */
export function startTurnProcessor(
  service: TurnService,
  options: { connection: Redis; prefix: string; concurrency: number },
): Worker {
  return createQueueWorker(
    'voice-turns',
    {
      'voice.turn': (data) =>
        inSpan(
          'voice turn',
          { parent: contextFromTraceparent(data.traceparent), attributes: { 'voice.turn_id': data.turnId } },
          () => service.execute(data.turnId),
        ),
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency },
  );
}
