import { actionOf, draftOf, EMPTY_FORM, selectorOf } from './campaign-form';

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
    });
  });
});
