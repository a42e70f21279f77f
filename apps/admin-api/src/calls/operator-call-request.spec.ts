import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { callRequestSchema } from '@fleet/platform-client';
import type { Actor } from '../http/actor';
import { createCallBody } from './calls.schemas';
import { operatorCallRequest } from './operator-call-request';

const actor = (apiKey: boolean): Actor => ({
  operatorId: randomUUID(),
  email: 'op@example.com',
  name: 'Op',
  role: 'operator',
  via: apiKey ? 'api_key' : 'session',
  ...(apiKey ? { apiKeyId: randomUUID() } : {}),
});

const visibleAscii = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));

describe('the call an operator’s POST asks for', () => {
  // CallRequests takes it without parsing it again: whatever the route's schemas let through must be a request
  // callRequestSchema accepts as it is (no field refused, no default left to fill in).
  it('is, for any body the route accepts, a request callRequestSchema accepts unchanged', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            tool: fc.string({ minLength: 1, maxLength: 200 }),
            arguments: fc.dictionary(fc.string(), fc.jsonValue()),
            reason: fc.string({ minLength: 1, maxLength: 2000 }),
            deliveryDeadlineS: fc.integer({ min: 1, max: 7 * 24 * 3600 }),
            approvalTtlS: fc.integer({ min: 60, max: 30 * 24 * 3600 }),
          },
          { requiredKeys: ['tool'] },
        ),
        fc.option(fc.array(visibleAscii, { minLength: 1, maxLength: 255 }).map((cs) => cs.join(''))),
        fc.integer({ min: 60, max: 30 * 24 * 3600 }),
        fc.boolean(),
        (raw, key, maxTtlS, apiKey) => {
          const body = createCallBody.safeParse(raw);
          fc.pre(body.success);
          const built = operatorCallRequest(
            actor(apiKey),
            'a0:85:e3:00:00:01',
            body.data,
            key ?? undefined,
            maxTtlS,
          );
          expect(callRequestSchema.parse(built)).toEqual(built);
        },
      ),
    );
  });

  it('keeps the defaults the schema would fill in, and caps the approval TTL', () => {
    const who = actor(true);
    const built = operatorCallRequest(who, 'a0:85:e3:00:00:01', { tool: 't', arguments: {} }, undefined, 600);
    expect(built).toEqual(
      callRequestSchema.parse({
        deviceId: 'a0:85:e3:00:00:01',
        tool: 't',
        origin: 'operator',
        operatorId: who.operatorId,
        apiKeyId: who.apiKeyId,
        approvalTtlMs: 600_000,
      }),
    );
    expect(
      operatorCallRequest(who, 'd', { tool: 't', arguments: {}, approvalTtlS: 120 }, 'k', 600),
    ).toMatchObject({ approvalTtlMs: 120_000, idempotencyKey: `operator:${who.operatorId}:k` });
  });
});
