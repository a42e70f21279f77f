import type { VoiceSession } from './voice-session';

/** This replica's open sessions, by session id, by the ssrc in their packets, and by MQTT connection. */
export class SessionRegistry {
  private readonly bySessionId = new Map<string, VoiceSession>();
  private readonly bySsrc = new Map<number, VoiceSession>();
  private readonly byConnection = new Map<string, VoiceSession>();

  add(session: VoiceSession): void {
    this.bySessionId.set(session.sessionId, session);
    this.bySsrc.set(session.ssrc, session);
    this.byConnection.set(session.connectionId, session);
  }

  remove(session: VoiceSession): void {
    if (this.bySessionId.get(session.sessionId) === session) this.bySessionId.delete(session.sessionId);
    if (this.bySsrc.get(session.ssrc) === session) this.bySsrc.delete(session.ssrc);
    if (this.byConnection.get(session.connectionId) === session)
      this.byConnection.delete(session.connectionId);
  }

  get(sessionId: string): VoiceSession | undefined {
    return this.bySessionId.get(sessionId);
  }

  bySsrcOf(ssrc: number): VoiceSession | undefined {
    return this.bySsrc.get(ssrc);
  }

  ofConnection(connectionId: string): VoiceSession | undefined {
    return this.byConnection.get(connectionId);
  }

  all(): VoiceSession[] {
    return [...this.bySessionId.values()];
  }

  get size(): number {
    return this.bySessionId.size;
  }
}
