import { toolAccess, toolSensitivity, visibleToMachines } from './tool-access';

const wifi = {
  name: 'self.system.reconfigure_wifi',
  description:
    'End this conversation and enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
  userOnly: false,
};
const volume = { name: 'self.audio_speaker.set_volume', description: 'Set the volume.', userOnly: false };
const reboot = { name: 'self.reboot', description: 'Reboot the device.', userOnly: true };

describe('the tool-access decision', () => {
  it('makes a tool whose description asks for confirmation sensitive by default, with the reason', () => {
    expect(toolSensitivity(wifi, undefined)).toEqual({
      sensitive: true,
      reason: 'sensitive by default: its description asks for the user\'s confirmation ("caution")',
      byDefault: 'its description asks for the user\'s confirmation ("caution")',
    });
    expect(toolSensitivity({ ...volume, description: '调用前需要用户确认' }, undefined).sensitive).toBe(true);
  });

  it('makes a destructiveHint tool sensitive by default', () => {
    expect(toolSensitivity({ ...volume, annotations: { destructiveHint: true } }, undefined).sensitive).toBe(
      true,
    );
  });

  it("lets an operator lift a description's default, but never a device's user-only declaration", () => {
    expect(toolSensitivity(wifi, false).sensitive).toBe(false);
    expect(toolSensitivity(reboot, false).sensitive).toBe(true);
    expect(toolSensitivity(volume, true)).toEqual({
      sensitive: true,
      reason: 'an operator marked it sensitive',
      byDefault: undefined,
    });
    // A lifted default is still reported as the default it was, for the catalog's badge.
    expect(toolSensitivity(wifi, false)).toMatchObject({ sensitive: false, byDefault: expect.any(String) });
  });

  it('refuses a sensitive tool to the LLM and hides it from the LLM and agents', () => {
    expect(toolAccess('llm', wifi, undefined, false).kind).toBe('refused');
    expect(toolAccess('llm', reboot, undefined, false).kind).toBe('refused');
    expect(visibleToMachines(wifi, undefined)).toBe(false);
    expect(visibleToMachines(volume, undefined)).toBe(true);
  });

  it("has a person's, a campaign's or an agent's call to a sensitive tool wait for approval", () => {
    expect(toolAccess('operator', wifi, undefined, false)).toMatchObject({ kind: 'needs_approval' });
    expect(toolAccess('campaign', reboot, undefined, false).kind).toBe('needs_approval');
    expect(toolAccess('agent', reboot, undefined, false).kind).toBe('needs_approval');
  });

  it('allows open tools to everyone, and only reads to the platform on its own', () => {
    expect(toolAccess('llm', volume, undefined, false).kind).toBe('allowed');
    expect(toolAccess('system', volume, undefined, false).kind).toBe('refused');
    expect(toolAccess('system', { ...volume, name: 'self.get_device_status' }, undefined, true).kind).toBe(
      'allowed',
    );
  });
});
