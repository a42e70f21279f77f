import { runHealthChecks } from './health';

describe('runHealthChecks', () => {
  it('is healthy only when every check passes', async () => {
    const report = await runHealthChecks([
      { name: 'postgres', check: () => Promise.resolve() },
      {
        name: 'redis',
        check: async () => Promise.reject(new Error('connect ECONNREFUSED')),
        hint: 'start Redis',
      },
    ]);
    expect(report.ok).toBe(false);
    expect(report.checks['postgres']?.ok).toBe(true);
    expect(report.checks['redis']).toMatchObject({
      ok: false,
      error: 'connect ECONNREFUSED',
      hint: 'start Redis',
    });
  });

  it('fails a check that does not answer in time', async () => {
    const report = await runHealthChecks([{ name: 'mqtt', check: () => new Promise(() => undefined) }], 20);
    expect(report.checks['mqtt']).toMatchObject({ ok: false, error: 'mqtt did not answer within 20 ms' });
  });
});
