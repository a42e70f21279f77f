import type { SessionDirectory } from '../sessions/session-directory';
import type { ReplyTarget } from './reply-presenter';

/** Spoken on the turn's own session (or, for a turn from text, the device's open one); else shown as text. */
export async function replyTargetOf(
  sessions: SessionDirectory,
  turn: { deviceId: string; sessionId: string | null },
): Promise<ReplyTarget> {
  const session = turn.sessionId
    ? await sessions.session(turn.sessionId)
    : await sessions.openSessionOf(turn.deviceId);
  return session ? { mode: 'spoken', mac: turn.deviceId, session } : { mode: 'text', mac: turn.deviceId };
}
