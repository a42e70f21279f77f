import { toCJson } from '../../json/cjson-convert';
import { parseCJson } from '../../json/cjson-parse';
import type { CJsonValue } from '../../json/cjson-value';
import { SCREEN_SNAPSHOT_TOOL, SET_VOLUME_TOOL, UPGRADE_FIRMWARE_TOOL } from '../firmware-tools';
import type { ToolDefinition } from '../tool-definition';
import { argumentNoteSchema } from './argument-note';
import { bindFirmwareArguments } from './bind-arguments';

const args = (text: string): CJsonValue => {
  const r = parseCJson(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('bindFirmwareArguments, the argument loop of DoToolCall', () => {
  it('binds a value of the declared type as it is', () => {
    expect(bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":40}'))).toEqual({
      outcome: { kind: 'bound', values: { volume: 40 } },
      notes: [],
    });
  });

  it('truncates a fraction through valueint and says so', () => {
    expect(bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":40.7}'))).toEqual({
      outcome: { kind: 'bound', values: { volume: 40 } },
      notes: [{ kind: 'integer_truncated', property: 'volume', key: 'volume', sent: 40.7, used: 40 }],
    });
  });

  it('range-checks the saturated int, so 1e10 exceeds the maximum', () => {
    expect(bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":1e10}')).outcome).toEqual({
      kind: 'rejected',
      message: 'Value exceeds maximum allowed: 100',
      property: 'volume',
    });
  });

  it('lets the first of duplicate keys win: {"volume":500,"volume":50} is out of range', () => {
    const binding = bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":500,"volume":50}'));
    expect(binding.outcome).toMatchObject({
      kind: 'rejected',
      message: 'Value exceeds maximum allowed: 100',
    });
    expect(binding.notes).toContainEqual({
      kind: 'duplicate_ignored',
      property: 'volume',
      key: 'volume',
      keptKey: 'volume',
    });
  });

  it('matches argument names case-insensitively and records the spelling it used', () => {
    const binding = bindFirmwareArguments(SET_VOLUME_TOOL, toCJson({ Volume: 80, volume: 30 }));
    expect(binding.outcome).toEqual({ kind: 'bound', values: { volume: 80 } });
    expect(binding.notes).toEqual([
      { kind: 'duplicate_ignored', property: 'volume', key: 'volume', keptKey: 'Volume' },
      { kind: 'key_case_differs', property: 'volume', key: 'Volume' },
    ]);
  });

  it('counts a value of the wrong type as absent: an error without a default', () => {
    const binding = bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":"40"}'));
    expect(binding.outcome).toMatchObject({ kind: 'rejected', message: 'Missing valid argument: volume' });
    expect(binding.notes).toEqual([
      { kind: 'wrong_type', property: 'volume', key: 'volume', expected: 'integer', sent: 'string' },
    ]);
  });

  it('uses the default silently when the value is absent or of the wrong type', () => {
    expect(bindFirmwareArguments(UPGRADE_FIRMWARE_TOOL, undefined)).toEqual({
      outcome: {
        kind: 'bound',
        values: { url: 'The URL of the firmware binary file to download and install' },
      },
      notes: [
        {
          kind: 'default_used',
          property: 'url',
          value: 'The URL of the firmware binary file to download and install',
          because: 'absent',
        },
      ],
    });
    expect(
      bindFirmwareArguments(SCREEN_SNAPSHOT_TOOL, args('{"url":"u","quality":"high"}')).notes,
    ).toContainEqual({
      kind: 'default_used',
      property: 'quality',
      value: 80,
      because: 'wrong_type',
    });
  });

  it('ignores undeclared arguments and lists them', () => {
    const binding = bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":10,"force":true}'));
    expect(binding.outcome).toEqual({ kind: 'bound', values: { volume: 10 } });
    expect(binding.notes).toEqual([{ kind: 'undeclared_ignored', key: 'force' }]);
  });

  it('reports the first failing property in declaration order', () => {
    const tool: ToolDefinition = {
      name: 't',
      description: '',
      properties: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'integer', maximum: 1 },
      ],
      userOnly: false,
    };
    expect(bindFirmwareArguments(tool, args('{"b":5}')).outcome).toMatchObject({
      message: 'Missing valid argument: a',
    });
    expect(bindFirmwareArguments(tool, args('{"a":"x","b":5}')).outcome).toMatchObject({
      message: 'Value exceeds maximum allowed: 1',
    });
  });

  it('does not range-check a default', () => {
    expect(bindFirmwareArguments(SCREEN_SNAPSHOT_TOOL, args('{"url":"u"}')).outcome).toEqual({
      kind: 'bound',
      values: { url: 'u', quality: 80 },
    });
  });

  it('accepts only JSON booleans for a boolean', () => {
    const relay: ToolDefinition = {
      name: 'r',
      description: '',
      properties: [{ name: 'on', type: 'boolean' }],
      userOnly: false,
    };
    expect(bindFirmwareArguments(relay, args('{"on":true}')).outcome).toEqual({
      kind: 'bound',
      values: { on: true },
    });
    expect(bindFirmwareArguments(relay, args('{"on":1}')).outcome).toMatchObject({
      message: 'Missing valid argument: on',
    });
  });

  it('writes notes that the evidence schema accepts', () => {
    const notes = [
      ...bindFirmwareArguments(SCREEN_SNAPSHOT_TOOL, args('{"URL":"u","url":"v","quality":"x","extra":1}'))
        .notes,
      ...bindFirmwareArguments(SET_VOLUME_TOOL, args('{"volume":4.5}')).notes,
    ];
    expect(notes.map((n) => n.kind).sort()).toEqual(
      [
        'default_used',
        'duplicate_ignored',
        'integer_truncated',
        'key_case_differs',
        'undeclared_ignored',
        'wrong_type',
      ].sort(),
    );
    for (const note of notes) expect(argumentNoteSchema.parse(note)).toEqual(note);
  });
});
