import { randomBytes } from 'node:crypto';
import { checkRequestState, mintRequestState } from './request-state';

const key = randomBytes(32);
const claims = {
  callId: '0b6f4a3e-8a59-4b8e-9d8e-3f1a2b3c4d5e',
  argumentsHash: 'a'.repeat(64),
  agentId: 'api_key:1',
  expiresAt: 2_000_000,
};
const expected = { agentId: 'api_key:1', argumentsHash: 'a'.repeat(64), now: 1_000_000 };

describe('requestState', () => {
  it('reads back a state it signed, for the same agent and request, before its expiry', () => {
    const { state } = mintRequestState(key, claims);
    expect(checkRequestState(key, state, expected)).toMatchObject({ ok: true, claims });
  });

  it('refuses a state signed with another key, or whose claims were edited', () => {
    const { state } = mintRequestState(key, claims);
    expect(checkRequestState(randomBytes(32), state, expected)).toEqual({ ok: false, problem: 'forged' });
    const [body, mac] = state.split('.');
    const edited = JSON.parse(Buffer.from(body!, 'base64url').toString());
    edited.agentId = 'api_key:2';
    const forged = `${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${mac}`;
    expect(checkRequestState(key, forged, { ...expected, agentId: 'api_key:2' })).toEqual({
      ok: false,
      problem: 'forged',
    });
  });

  it('refuses an expired state, one given to another agent, and one for other arguments', () => {
    const { state } = mintRequestState(key, claims);
    expect(checkRequestState(key, state, { ...expected, now: 2_000_000 })).toMatchObject({
      problem: 'expired',
    });
    expect(checkRequestState(key, state, { ...expected, agentId: 'api_key:9' })).toMatchObject({
      problem: 'another_agent',
    });
    expect(checkRequestState(key, state, { ...expected, argumentsHash: 'b'.repeat(64) })).toMatchObject({
      problem: 'another_request',
    });
  });

  it('calls anything that is not two signed parts malformed', () => {
    for (const text of ['', 'x', 'a.b.c', `${'x'.repeat(3000)}.y`]) {
      expect(checkRequestState(key, text, expected)).toMatchObject({ ok: false });
    }
  });

  it('gives every state its own nonce', () => {
    expect(mintRequestState(key, claims).claims.nonce).not.toBe(mintRequestState(key, claims).claims.nonce);
  });
});
