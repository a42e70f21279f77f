import { startPlatform, type Platform } from '../../test/platform-fixture';

// The sweep sleeps until the earliest due time it knows of (DESIGN §1: deadlines are rows); here its idle pause
// is a minute, far beyond the waits below, so only the runner telling it of a wait that ends sooner can end them.
describe('the deadline sweep of an otherwise idle replica', () => {
  let p: Platform;
  let operator: string;

  beforeAll(async () => {
    p = await startPlatform({ SWEEP_IDLE_MS: '60000' });
    operator = await p.operator('Operator');
  });
  afterAll(() => p.close());

  it('ends a call waiting for an offline device undelivered at its deadline', async () => {
    const device = await p.device();
    await p.takeOffline(device);
    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: operator,
      deliveryDeadlineMs: 1_500,
    });
    expect((await p.waitVerdict(callId, 15_000)).verdict).toBe('undelivered');
  });

  it('ends a call expired when its approval runs out before anyone decides', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.reboot',
      origin: 'operator',
      operatorId: operator,
      approvalTtlMs: 1_500,
    });
    expect((await p.waitVerdict(callId, 15_000)).verdict).toBe('expired');
  });
});
