import { z } from 'zod';
import { platformEventSchema as published } from '@fleet/domain';
import { EVENT_TYPES, platformEventSchema } from './events';

/** A schema as JSON Schema without its strictness: what fields and values it allows. */
function shape(schema: z.ZodType): unknown {
  return JSON.parse(
    JSON.stringify(z.toJSONSchema(schema), (key, value: unknown) =>
      key === 'additionalProperties' ? undefined : value,
    ),
  );
}

describe('the events on /api/v1/events', () => {
  it('describe exactly the notices the services publish (libs/domain), type by type', () => {
    expect(shape(platformEventSchema)).toEqual(shape(published));
  });

  it('name one SSE event per notice type', () => {
    expect(EVENT_TYPES).toEqual(['presence', 'call', 'approval', 'campaign', 'catalog', 'voice_turn']);
  });

  it('accept a notice of each kind as the services send it', () => {
    const at = '2026-12-02T00:00:00.000Z';
    for (const event of [
      { type: 'presence', deviceId: 'a0:85:e3:f4:49:34', state: 'online', connectionId: 'k1', at },
      {
        type: 'call',
        callId: 'c',
        deviceId: 'd',
        tool: 'self.reboot',
        state: 'finished',
        verdict: 'verified',
        at,
      },
      { type: 'approval', approvalId: 'a', callId: 'c', state: 'pending', at },
      { type: 'campaign', campaignId: 'k', state: 'running', counts: { verified: 3 }, at },
      { type: 'catalog', deviceId: 'd', versionId: 'v', version: 2, at },
      { type: 'voice_turn', turnId: 't', deviceId: 'd', state: 'finished', at },
    ]) {
      expect(platformEventSchema.safeParse(event).success).toBe(true);
    }
  });

  it('refuse an unknown type, a wrong state and a field no notice has (a Client-Id must never ride along)', () => {
    const at = '2026-12-02T00:00:00.000Z';
    const presence = { type: 'presence', deviceId: 'd', state: 'online', connectionId: 'k1', at };
    expect(platformEventSchema.safeParse({ ...presence, type: 'gossip' }).success).toBe(false);
    expect(platformEventSchema.safeParse({ ...presence, state: 'asleep' }).success).toBe(false);
    const leak = platformEventSchema.safeParse({ ...presence, clientId: 'secret' });
    expect(leak.success).toBe(false);
    expect(leak.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['clientId'] });
  });
});
