import { QueueClient } from '@fleet/queues';

/** The producer of `voice.turn` jobs (the voice worker consumes them). */
export class VoiceTurnQueue extends QueueClient<'voice-turns'> {}
