import { capabilityCall, countsAsDone } from './capabilities';
import type { ToolProfileView } from './tool-profiles';

const arcs: ToolProfileView = {
  model: 'arcs-mini',
  catalogHash: '',
  tool: 'set_volume',
  kind: 'action',
  readback: null,
  capability: { name: 'volume', argument: 'value' },
  doneWhen: 'verified',
};

describe('capabilities across device families', () => {
  const has =
    (...names: string[]) =>
    (tool: string) =>
      names.includes(tool);

  it("map a capability to each model's own tool and argument, the firmware's built-in tool where no profile says", () => {
    const listenai = { board: null, serverName: 'arcs-mini' };
    expect(capabilityCall('volume', 30, listenai, [arcs], has('set_volume'))).toEqual({
      tool: 'set_volume',
      arguments: { value: 30 },
      source: 'profile',
    });
    const xiaozhi = { board: 'bread-compact-wifi' };
    expect(capabilityCall('volume', 30, xiaozhi, [arcs], has('self.audio_speaker.set_volume'))).toEqual({
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 30 },
      source: 'built-in',
    });
  });

  it('find no way for a device whose catalog lacks the mapped tool', () => {
    expect(
      capabilityCall('volume', 30, { board: null, serverName: 'arcs-mini' }, [arcs], has()),
    ).toBeUndefined();
    expect(capabilityCall('colour', 'red', { board: 'x' }, [arcs], has('set_volume'))).toBeUndefined();
  });

  it('count acknowledged as done only where the campaign says so', () => {
    expect(countsAsDone('verified', 'verified')).toBe('verified');
    expect(countsAsDone('acknowledged', 'verified')).toBeUndefined();
    expect(countsAsDone('acknowledged', 'verified_or_acknowledged')).toBe('acknowledged');
    expect(countsAsDone('effect_mismatch', 'verified_or_acknowledged')).toBeUndefined();
  });
});
