import { BREAD_COMPACT_WIFI, type BoardConfig } from '@fleet/device-sim';
import { startPlatform, type Platform } from '../../test/platform-fixture';

// A getter with no recipe and no readOnlyHint: only an operator's marking makes it a read (DESIGN §1).
const UNHINTED_GETTER: BoardConfig = {
  ...BREAD_COMPACT_WIFI,
  boardName: 'esp-hi',
  boardType: 'esp-hi',
  boardTools: [
    {
      name: 'self.light.is_on',
      description: 'Whether the light is on.',
      properties: [],
      userOnly: false,
    },
  ],
};

describe("an operator's read-only marking, through the real broker", () => {
  let p: Platform;
  let operator: string;

  beforeAll(async () => {
    p = await startPlatform();
    operator = await p.operator('Marker');
  });
  afterAll(() => p.close());

  const markReadOnly = (deviceId: string, readOnly: boolean) =>
    p.sql.query(
      `INSERT INTO tool_marking (device_id, tool_name, read_only, marked_by) VALUES ($1, 'self.light.is_on', $2, $3)`,
      [deviceId, readOnly, operator],
    );

  // The simulator answers "true" for a board tool it has no model of (only the esp-hi light getter, which has a
  // recipe, answers "false"), so the answer here is "true": the same either way, the reply is the value.
  it('only acknowledges an unmarked tool: a name that looks like a getter is not enough', async () => {
    const device = await p.device({ board: UNHINTED_GETTER, relayTools: undefined });
    const call = await p.waitVerdict(await p.call({ device, tool: 'self.light.is_on', origin: 'llm' }));
    expect(call).toMatchObject({ verdict: 'acknowledged', result: { text: 'true', isError: false } });
    const effect = (await p.evidence(call.id)).find((r) => r.stage === 'effect')?.payload;
    expect(effect).not.toMatchObject({ method: 'reply_is_effect' });
  });

  it('verifies the same answer once an operator marked the tool read-only, with the value in the evidence', async () => {
    const device = await p.device({ board: UNHINTED_GETTER, relayTools: undefined });
    await markReadOnly(device.mac, true);
    const callId = await p.call({ device, tool: 'self.light.is_on', origin: 'llm' });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'verified', result: { text: 'true', isError: false } });
    const effect = (await p.evidence(callId)).find((r) => r.stage === 'effect')!.payload;
    expect(effect).toMatchObject({ method: 'reply_is_effect', observed: 'true' });
  });

  it('only acknowledges it when the operator marked it not a read', async () => {
    const device = await p.device({ board: UNHINTED_GETTER, relayTools: undefined });
    await markReadOnly(device.mac, false);
    const call = await p.waitVerdict(await p.call({ device, tool: 'self.light.is_on', origin: 'llm' }));
    expect(call.verdict).toBe('acknowledged');
  });
});
