import { toolNameFlags } from './tool-names';

describe('tool name flags', () => {
  it.each(['self.get_device_status', 'self.audio_speaker.set_volume', 'DATA_EXPORT_v2', 'a'.repeat(128)])(
    'flags nothing in a name MCP recommends: %s',
    (name) => {
      expect(toolNameFlags(name)).toEqual([]);
    },
  );

  it.each([
    ['a slash (MCP 2025-11-25 dropped it from the set)', 'self.sec/reboot'],
    ['a space', 'self.set volume'],
    ['non-ASCII letters', 'self.灯.开'],
    ['129 characters', 'a'.repeat(129)],
  ])('flags a name outside MCP’s recommended set: %s', (_why, name) => {
    expect(toolNameFlags(name)).toEqual(['outside_mcp_names']);
  });

  it('flags a bidi control, which lets a name be shown as another', () => {
    expect(toolNameFlags('self.sec.\u202egnp.exe')).toEqual(['outside_mcp_names', 'bidi_control']);
    for (const control of ['\u202a', '\u202d', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c'])
      expect(toolNameFlags(`self.x${control}y`)).toContain('bidi_control');
  });

  it('flags another invisible character apart from bidi controls', () => {
    expect(toolNameFlags('self.re\u200bboot')).toEqual(['outside_mcp_names', 'invisible_character']);
    expect(toolNameFlags('self.\u202ereboot')).not.toContain('invisible_character');
  });
});
