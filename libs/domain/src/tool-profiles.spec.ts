import { platformToolHints } from './tool-hints';
import { proposeReadbacks } from './readback-pairings';
import { markingsOf, profileFor, toolProfileBodySchema, type ToolProfileView } from './tool-profiles';

const profile = (over: Partial<ToolProfileView>): ToolProfileView => ({
  model: 'arcs-mini',
  catalogHash: '',
  tool: 'get_volume',
  kind: 'read',
  readback: null,
  capability: null,
  doneWhen: 'verified',
  ...over,
});

describe('tool profiles', () => {
  it('apply to every device of the model, a profile of its exact catalog winning over the model-wide one', () => {
    const wide = profile({});
    const exact = profile({ catalogHash: 'a'.repeat(64), kind: 'action' });
    const device = { board: null, serverName: 'arcs-mini', catalogHash: 'a'.repeat(64) };
    expect(profileFor([wide, exact], device, 'get_volume')).toBe(exact);
    expect(profileFor([wide, exact], { ...device, catalogHash: 'b'.repeat(64) }, 'get_volume')).toBe(wide);
    expect(profileFor([wide], { board: 'arcs-lite', serverName: 'arcs-lite' }, 'get_volume')).toBeUndefined();
    expect(profileFor([wide], device, 'set_volume')).toBeUndefined();
  });

  it('let a per-device marking override what the profile says', () => {
    expect(markingsOf({ kind: 'read' }, {})).toEqual({ sensitive: undefined, readOnly: true });
    expect(markingsOf({ kind: 'needs_confirmation' }, {})).toEqual({ sensitive: true, readOnly: false });
    expect(markingsOf({ kind: 'sensitive' }, { sensitive: false })).toEqual({
      sensitive: false,
      readOnly: false,
    });
    expect(markingsOf({ kind: 'read' }, { readOnly: false }).readOnly).toBe(false);
  });

  it('refuse a readback that names both an argument and a constant, or a catalog hash that is not one', () => {
    const base = { model: 'm', tool: 'set_volume', kind: 'action' };
    expect(
      toolProfileBodySchema.safeParse({ ...base, readback: { tool: 'get_volume', argument: 'v', value: 1 } })
        .success,
    ).toBe(false);
    expect(toolProfileBodySchema.safeParse({ ...base, catalogHash: 'xyz' }).success).toBe(false);
    expect(
      toolProfileBodySchema.parse({ ...base, readback: { tool: 'get_volume', argument: 'value' } }).readback,
    ).toEqual({ tool: 'get_volume', arguments: {}, path: '', argument: 'value', settleMs: 0 });
  });
});

describe('readback pairings seen in a catalog', () => {
  it('pair a setter with the reader of the same property, and a light switch with its power reader', () => {
    const tools = [
      { name: 'set_volume', inputSchema: { type: 'object', properties: { value: { type: 'number' } } } },
      { name: 'get_volume', inputSchema: { type: 'object', properties: {} } },
      { name: 'set_screen', inputSchema: { type: 'object', properties: { content: {}, brightness: {} } } },
      { name: 'self.light.turn_on', inputSchema: {} },
      { name: 'self.light.turn_off', inputSchema: {} },
      { name: 'self.light.get_power', inputSchema: {} },
      { name: 'self.lamp.turn_on', inputSchema: {} },
    ];
    expect(
      proposeReadbacks(tools).map((p) => [p.tool, p.readback.tool, p.readback.argument ?? p.readback.value]),
    ).toEqual([
      ['set_volume', 'get_volume', 'value'],
      ['self.light.turn_on', 'self.light.get_power', true],
      ['self.light.turn_off', 'self.light.get_power', false],
    ]);
  });
});

describe("the platform's tool hints", () => {
  it("follow the model's profile unless the device's own marking says otherwise", () => {
    const tool = { name: 'get_volume', description: 'read the volume', userOnly: false };
    const none = { sensitive: undefined, readOnly: undefined };
    expect(platformToolHints(tool, none).readOnlyHint).toBe(false);
    expect(platformToolHints(tool, none, { kind: 'read' }).readOnlyHint).toBe(true);
    expect(platformToolHints(tool, { ...none, readOnly: false }, { kind: 'read' }).readOnlyHint).toBe(false);
    expect(platformToolHints(tool, none, { kind: 'needs_confirmation' }).destructiveHint).toBe(true);
  });
});
