import { judgeAnnouncement, type SpokenDelivery } from './announcement-judgement';

const spoken = (over: Partial<SpokenDelivery>): SpokenDelivery => ({
  sessionId: 's1',
  speakingAt: new Date('2026-12-07T10:00:00Z'),
  ttsStoppedAt: new Date('2026-12-07T10:00:03Z'),
  synthesisError: null,
  heard: 'listen_start',
  heardAt: new Date('2026-12-07T10:00:03.400Z'),
  finishedAt: new Date('2026-12-07T10:00:03.400Z'),
  ...over,
});

describe('the verdicts of announcements', () => {
  it('claims no more for an alert than that it was published on the device connection', () => {
    const judged = judgeAnnouncement({ kind: 'alert_published', connectionId: 'c7' });
    expect(judged.verdict).toBe('no_response');
    expect(judged.reason).toMatch(/published on the connection c7/);
  });

  it('verifies speech by the listen start after tts stop, or by the device going idle', () => {
    expect(judgeAnnouncement({ kind: 'spoken', how: 'spoken', delivery: spoken({}) }).verdict).toBe(
      'verified',
    );
    expect(
      judgeAnnouncement({ kind: 'spoken', how: 'both', delivery: spoken({ heard: 'idle' }) }).verdict,
    ).toBe('verified');
  });

  it('does not verify speech the device aborted, whose session closed, that failed to synthesise, or that nothing ended', () => {
    for (const over of [
      { heard: 'abort' as const },
      { heard: 'closed' as const },
      { heard: 'none' as const },
      { synthesisError: 'espeak-ng exited 1' },
    ]) {
      expect(judgeAnnouncement({ kind: 'spoken', how: 'spoken', delivery: spoken(over) }).verdict).toBe(
        'no_response',
      );
    }
  });

  it('is undelivered when no session opened before the deadline, unless its alert already went out', () => {
    const deadline = new Date('2026-12-07T11:00:00Z');
    expect(judgeAnnouncement({ kind: 'no_session', how: 'spoken', deadline }).verdict).toBe('undelivered');
    const both = judgeAnnouncement({ kind: 'no_session', how: 'both', deadline });
    expect(both.verdict).toBe('no_response');
    expect(both.reason).toMatch(/the alert was published/);
  });
});
