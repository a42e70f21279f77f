import { healthLine } from './health-line';

describe('the health line', () => {
  it('names each service with its state and how often it was restarted', () => {
    expect(
      healthLine([
        { name: 'broker', state: 'down', restarts: 2 },
        { name: 'orchestrator', state: 'up', restarts: 0 },
        { name: 'admin-api', state: 'starting', restarts: 1 },
      ]),
    ).toBe(
      'health: broker DOWN, restarting (restarted 2×), orchestrator up, admin-api starting (restarted 1×)',
    );
  });
});
