import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { currentTraceparent } from '@fleet/telemetry';
import { ApiError, conflict, notFound } from '../http/api-error';
import { Notices } from '../infra/notices';
import { Transactions } from '../infra/transactions';
import { VoiceTurnQueue } from '../infra/voice-turn-queue';
import { UtterancesRepository, type TurnRow } from './utterances.repository';

/**
 * "As if the device's user said it": a voice turn from text, handed to the voice worker (`voice.turn`), which
 * runs the LLM with the AI-visible tools only. The API writes the turn and queues it, nothing more.
 */
@Injectable()
export class UtterancesService {
  constructor(
    private readonly turns: UtterancesRepository,
    private readonly transactions: Transactions,
    private readonly queue: VoiceTurnQueue,
    private readonly notices: Notices,
  ) {}

  async create(deviceId: string, text: string, language?: string): Promise<{ id: string; state: string }> {
    const status = await this.turns.deviceStatus(deviceId);
    if (status === undefined) throw notFound('device', deviceId);
    if (status !== 'active') throw conflict('device_unavailable', `device ${deviceId} is ${status}`);
    const hash = createHash('sha256').update(text).digest('hex');
    const turn = await this.transactions.run((tx) =>
      this.turns.create(tx, { deviceId, text, hash, ...(language ? { language } : {}) }),
    );
    try {
      // The turn continues this request's trace (DESIGN §2: one voice turn is one trace).
      const traceparent = currentTraceparent();
      await this.queue.add('voice.turn', { turnId: turn.id, ...(traceparent ? { traceparent } : {}) });
    } catch (err) {
      await this.turns.fail(turn.id, `could not be queued: ${(err as Error).message}`);
      throw new ApiError(503, 'queue_unavailable', 'the voice worker queue cannot be reached; try again');
    }
    this.notices.event({
      type: 'voice_turn',
      turnId: turn.id,
      deviceId,
      state: turn.state,
      at: new Date().toISOString(),
    });
    return turn;
  }

  async get(id: string): Promise<TurnRow> {
    const turn = await this.turns.get(id);
    if (!turn) throw notFound('voice turn', id);
    return turn;
  }
}
