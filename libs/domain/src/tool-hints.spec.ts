import { platformToolHints } from './tool-hints';

const tool = (name: string, extra: object = {}) => ({ name, description: '', userOnly: false, ...extra });

describe('platformToolHints', () => {
  it('calls a read tool read-only and idempotent, from its declaration or a marking', () => {
    const declared = tool('self.get_volume', { annotations: { readOnlyHint: true } });
    expect(platformToolHints(declared, { sensitive: undefined, readOnly: undefined })).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(platformToolHints(tool('get_power'), { sensitive: undefined, readOnly: true }).readOnlyHint).toBe(
      true,
    );
  });

  it('calls a tool the gate holds for a person destructive, whatever it declares', () => {
    const reboot = tool('self.reboot', { userOnly: true, annotations: { readOnlyHint: true } });
    expect(platformToolHints(reboot, { sensitive: undefined, readOnly: undefined })).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    const marked = platformToolHints(tool('self.lamp.toggle'), { sensitive: true, readOnly: undefined });
    expect(marked.destructiveHint).toBe(true);
  });

  it('calls an open setter neither read-only nor destructive', () => {
    expect(
      platformToolHints(tool('self.audio_speaker.set_volume'), { sensitive: undefined, readOnly: undefined }),
    ).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });
});
