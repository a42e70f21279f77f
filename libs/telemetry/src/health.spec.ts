import { runHealthChecks, sharedHealthChecks } from './health';

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

  it('is degraded, not unhealthy, when only a check of degraded severity fails', async () => {
    const report = await runHealthChecks([
      { name: 'postgres', check: () => Promise.resolve() },
      { name: 'tts', severity: 'degraded', check: () => Promise.reject(new Error('espeak-ng missing')) },
    ]);
    expect(report).toMatchObject({ ok: true, status: 'degraded' });
    expect(report.checks['tts']).toMatchObject({ ok: false, severity: 'degraded' });
  });

  it('fails a check that does not answer in time', async () => {
    const report = await runHealthChecks([{ name: 'mqtt', check: () => new Promise(() => undefined) }], 20);
    expect(report.checks['mqtt']).toMatchObject({ ok: false, error: 'mqtt did not answer within 20 ms' });
  });
});

describe('sharedHealthChecks', () => {
  it('gives callers who arrive during a run that run, and starts a new one for the next caller', async () => {
    let runs = 0;
    let up = true;
    const health = sharedHealthChecks([
      {
        name: 'postgres',
        check: async () => {
          runs++;
          await new Promise((resolve) => setImmediate(resolve));
          if (!up) throw new Error('connect ECONNREFUSED');
        },
      },
    ]);
    const [a, b] = await Promise.all([health(), health()]);
    expect(runs).toBe(1);
    expect(a).toBe(b);
    up = false;
    expect((await health()).ok).toBe(false);
    expect(runs).toBe(2);
  });
});
