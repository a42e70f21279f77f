import type { AnnouncementHow } from '@fleet/domain';
import type { Judgement } from './verdict-table';

/** How the device showed the end of playback, as the voice worker observed it (see its PlaybackWatch). */
export type Heard = 'listen_start' | 'idle' | 'abort' | 'closed' | 'none';

/** What the voice worker wrote of the speech (the announcement_delivery row). */
export interface SpokenDelivery {
  sessionId: string;
  speakingAt: Date;
  ttsStoppedAt: Date | null;
  synthesisError: string | null;
  heard: Heard | null;
  heardAt: Date | null;
  finishedAt: Date | null;
}

/** How far an announcement got, as the orchestrator can tell when it judges it. */
export type AnnouncementObservation =
  | { kind: 'alert_published'; connectionId: string | undefined }
  | { kind: 'spoken'; how: AnnouncementHow; delivery: SpokenDelivery }
  | { kind: 'no_session'; how: AnnouncementHow; deadline: Date }
  | { kind: 'playback_unfinished'; how: AnnouncementHow; delivery: SpokenDelivery }
  /** The replica publishing an alert stopped before recording it: whether it left is unknown. */
  | { kind: 'alert_unrecorded' };

/**
 * The verdict table's rows for announcements (DESIGN §1), kept apart from the tool recipes: an announcement is no
 * MCP request, so nothing of it is ever answered by id. An alert proves only that it was published on the
 * connection the device holds (the firmware shows it and says nothing back: xiaozhi §2.2). Speech is `verified`
 * by the device's own `listen start` after `tts stop` (auto mode sends it only once local playback has drained,
 * xiaozhi §2.1) or by its return to idle; a device that opened no session before the deadline never heard it.
 */
export function judgeAnnouncement(o: AnnouncementObservation): Judgement {
  switch (o.kind) {
    case 'alert_published': {
      const on = o.connectionId ? ` ${o.connectionId}` : '';
      const shown = `the alert was published on the connection${on} the device holds; the firmware shows it and answers nothing, so nothing more is claimed`;
      return { verdict: 'no_response', reason: shown, effect: shown };
    }
    case 'no_session': {
      const why = `the device opened no voice session before ${o.deadline.toISOString()}, so the speech was never played`;
      // With `both` the alert did go out: the call was sent, only its speech was not.
      return o.how === 'both'
        ? { verdict: 'no_response', reason: `the alert was published, but ${why}`, effect: why }
        : { verdict: 'undelivered', reason: why, effect: `not sent (${why})` };
    }
    case 'alert_unrecorded': {
      const why = 'the replica publishing the alert stopped before recording it; whether it left is unknown';
      return { verdict: 'no_response', reason: why, effect: why };
    }
    case 'playback_unfinished': {
      const why = `speech began in session ${o.delivery.sessionId} but its end was never observed`;
      return { verdict: 'no_response', reason: why, effect: why };
    }
    case 'spoken':
      return spokenJudgement(o.delivery);
  }
}

function spokenJudgement(d: SpokenDelivery): Judgement {
  const inSession = `in session ${d.sessionId}`;
  if (d.synthesisError) {
    const why = `speech synthesis failed ${inSession} (${d.synthesisError}); the text was shown, nothing was heard`;
    return { verdict: 'no_response', reason: why, effect: why };
  }
  switch (d.heard ?? 'none') {
    case 'listen_start': {
      const why = `spoken ${inSession}; the device said listen start after tts stop, so its playback drained`;
      return { verdict: 'verified', reason: why, effect: why };
    }
    case 'idle': {
      const why = `spoken ${inSession}; the device went back to idle after tts stop`;
      return { verdict: 'verified', reason: why, effect: why };
    }
    case 'abort': {
      const why = `the device aborted the speech ${inSession} (a button or its wake word) before it ended`;
      return { verdict: 'no_response', reason: why, effect: why };
    }
    case 'closed': {
      const why = `the session ${d.sessionId} closed before the speech ended`;
      return { verdict: 'no_response', reason: why, effect: why };
    }
    case 'none': {
      const why = `spoken ${inSession}, but the device neither said listen start nor went idle in the expected time`;
      return { verdict: 'no_response', reason: why, effect: why };
    }
  }
}
