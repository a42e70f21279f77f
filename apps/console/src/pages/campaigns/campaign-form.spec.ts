import { actionOf, draftOf, EMPTY_FORM, selectorOf, valueOf } from './campaign-form';

describe('the campaign form', () => {
  it('has no selector until a criterion is named (the API needs one)', () => {
    expect(selectorOf(EMPTY_FORM)).toBeUndefined();
  });

  it('reads lists and presence into a selector', () => {
    expect(
      selectorOf({
        ...EMPTY_FORM,
        board: ' bread ',
        groups: 'lobby, hall',
        online: 'true',
        dialect: 'listenai',
        deviceIds: 'A0:85:E3:F4:49:34\n',
      }),
    ).toEqual({
      board: 'bread',
      groups: ['lobby', 'hall'],
      online: true,
      dialect: 'listenai',
      deviceIds: ['a0:85:e3:f4:49:34'],
    });
  });

  it('refuses arguments that are not a JSON object, and a tool without a name', () => {
    expect(actionOf({ ...EMPTY_FORM, tool: 'self.x', argumentsJson: '[1]' })).toEqual({
      ok: false,
      problem: 'arguments',
    });
    expect(actionOf({ ...EMPTY_FORM, tool: 'self.x', argumentsJson: '{oops' })).toEqual({
      ok: false,
      problem: 'arguments',
    });
    expect(actionOf({ ...EMPTY_FORM, tool: ' ' })).toEqual({ ok: false, problem: 'tool' });
    expect(actionOf({ ...EMPTY_FORM, actionKind: 'firmware' })).toEqual({ ok: false, problem: 'firmware' });
    expect(actionOf({ ...EMPTY_FORM, actionKind: 'reboot' })).toEqual({
      ok: true,
      action: { kind: 'reboot' },
    });
  });

  it('turns the percentages and counts into the spec the API takes', () => {
    const form = {
      ...EMPTY_FORM,
      name: ' Night ',
      batchSize: '3',
      maxInFlight: '2',
      ratePerMinute: '',
      failurePercent: '25',
    };
    expect(draftOf(form, { online: true }, { kind: 'reboot' })).toEqual({
      name: 'Night',
      selector: { online: true },
      action: { kind: 'reboot' },
      rollout: { batchSize: 3, maxInFlight: 2 },
      abortRule: { failureRate: 0.25, minDevices: 10 },
      deviceTimeoutS: 600,
      retries: 0,
      skipInSession: true,
      doneWhen: 'verified',
    });
    expect(
      draftOf({ ...form, doneWhen: 'verified_or_acknowledged' }, { online: true }, { kind: 'reboot' }),
    ).toMatchObject({ doneWhen: 'verified_or_acknowledged' });
  });

  it('builds a capability action from its name and value, and names what is missing', () => {
    const capability = { ...EMPTY_FORM, actionKind: 'capability' as const };
    expect(actionOf({ ...capability, capability: ' volume ', capabilityValue: '30' })).toEqual({
      ok: true,
      action: { kind: 'capability', capability: 'volume', value: 30 },
    });
    expect(actionOf({ ...capability, capability: 'screen', capabilityValue: '请稍候' })).toEqual({
      ok: true,
      action: { kind: 'capability', capability: 'screen', value: '请稍候' },
    });
    expect(actionOf({ ...capability, capabilityValue: '30' })).toEqual({ ok: false, problem: 'capability' });
    expect(actionOf({ ...capability, capability: 'volume', capabilityValue: ' ' })).toEqual({
      ok: false,
      problem: 'value',
    });
  });

  it('reads a value as a JSON number, boolean or string, and anything else as the text typed', () => {
    expect(valueOf('true')).toBe(true);
    expect(valueOf('"30"')).toBe('30');
    expect(valueOf('dark')).toBe('dark');
    expect(valueOf('{"a":1}')).toBe('{"a":1}');
    expect(valueOf('')).toBeUndefined();
  });
});
