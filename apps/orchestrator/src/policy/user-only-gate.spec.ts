import { gate } from './user-only-gate';

const reboot = { name: 'self.reboot', description: 'Reboot the device.', userOnly: true };
const status = { name: 'self.get_device_status', description: 'Status.', userOnly: false };

describe("the orchestrator's gate", () => {
  it('refuses a user-only tool to the LLM, even under a guessed name', () => {
    expect(gate('llm', reboot, undefined, false)).toMatchObject({ kind: 'refused' });
  });

  it("has a person's, a campaign's and an agent's user-only call wait for approval", () => {
    expect(gate('operator', reboot, undefined, false).kind).toBe('needs_approval');
    expect(gate('campaign', reboot, undefined, false).kind).toBe('needs_approval');
    expect(gate('agent', reboot, undefined, false).kind).toBe('needs_approval');
  });

  it('lets the platform run reads on its own, and an operator-marked tool waits for approval', () => {
    expect(gate('system', status, undefined, true).kind).toBe('allowed');
    expect(gate('operator', status, true, true).kind).toBe('needs_approval');
  });
});
