import {
  type ReaderHealth,
  readUplinkFields,
  SessionStreamReader,
  voiceStreams,
  type Redis,
  type UplinkFrame,
} from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

/** The up streams of this worker's voice sessions: the decrypted Opus frames the broker forwards. */
export class UplinkReader extends SessionStreamReader<UplinkFrame> {
  constructor(
    blocking: Redis,
    commands: Redis,
    workerId: string,
    deliver: (sessionId: string, frame: UplinkFrame) => void,
    logger: Logger,
    health?: ReaderHealth,
  ) {
    super({
      blocking,
      commands,
      wakeKey: `voice:worker:${workerId}:wake`,
      streamOf: voiceStreams.up,
      read: readUplinkFields,
      deliver,
      count: 200,
      what: 'uplink',
      logger,
      ...(health ? { health } : {}),
    });
  }
}
