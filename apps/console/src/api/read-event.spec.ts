import { platformEventSchema } from '@fleet/api-contract';
import { readEvent } from './read-event';

const call = {
  type: 'call',
  callId: 'c1',
  deviceId: 'a0:85:e3:f4:49:34',
  tool: 'self.reboot',
  state: 'finished',
  verdict: 'verified',
  at: '2026-12-02T00:00:00.000Z',
};

describe('reading a server-sent event', () => {
  it('hands on a notice that fits its schema, typed', () => {
    const read = readEvent(platformEventSchema, 'call', JSON.stringify(call));
    expect(read).toEqual({ ok: true, event: call });
  });

  it('drops a notice that is not JSON, says another type than its name, or is off its schema', () => {
    expect(readEvent(platformEventSchema, 'call', '{oops')).toEqual({ ok: false, problem: 'not JSON' });
    expect(readEvent(platformEventSchema, 'presence', JSON.stringify(call))).toEqual({
      ok: false,
      problem: 'its type is "call"',
    });
    const wrong = readEvent(platformEventSchema, 'call', JSON.stringify({ ...call, verdict: 'probably' }));
    expect(wrong).toMatchObject({ ok: false, problem: expect.stringMatching(/^verdict: /) });
  });
});
