import {
  readDownlinkFields,
  SessionStreamReader,
  voiceStreams,
  type DownlinkEntry,
  type Redis,
} from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

/** The down streams of this replica's voice sessions: what the voice workers send each device. */
export class DownlinkReader extends SessionStreamReader<DownlinkEntry> {
  constructor(
    blocking: Redis,
    commands: Redis,
    brokerId: string,
    deliver: (sessionId: string, entry: DownlinkEntry) => void,
    logger: Logger,
  ) {
    super({
      blocking,
      commands,
      wakeKey: `voice:broker:${brokerId}:wake`,
      streamOf: voiceStreams.down,
      read: readDownlinkFields,
      deliver,
      count: 100,
      what: 'downlink',
      logger,
    });
  }
}
