import { formatClientId, parseClientId } from './client-id';
import { decodeUsername, encodeUsername } from './username';

describe('client id and username of the gateway convention', () => {
  it('parses and formats the three-part client id', () => {
    const id = 'GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@aeebef32-f0ef-4bce-9d8a-894d91bc6932';
    const parsed = parseClientId(id);
    expect(parsed).toEqual({
      ok: true,
      value: {
        group: 'bread-compact-wifi',
        mac: 'a0:85:e3:f4:49:34',
        uuid: 'aeebef32-f0ef-4bce-9d8a-894d91bc6932',
        legacy: false,
      },
    });
    if (parsed.ok && parsed.value.uuid) {
      expect(formatClientId({ ...parsed.value, uuid: parsed.value.uuid })).toBe(id);
    }
  });

  it('accepts the legacy two-part form with a valid MAC', () => {
    expect(parseClientId('GID_test@@@a0_85_e3_f4_49_34')).toEqual({
      ok: true,
      value: { group: 'test', mac: 'a0:85:e3:f4:49:34', legacy: true },
    });
  });

  it.each([
    'GID_test@@@A0_85_E3_F4_49_34',
    'GID_test@@@a0_85_e3_f4_49',
    'GID_test@@@a0:85:e3:f4:49:34',
    'test@@@a0_85_e3_f4_49_34@@@u',
    'GID_@@@a0_85_e3_f4_49_34@@@u',
    'GID_test@@@a0_85_e3_f4_49_34@@@',
    'GID_test',
    'GID_a@@@a0_85_e3_f4_49_34@@@u@@@v',
  ])('refuses %s', (id) => {
    expect(parseClientId(id)).toMatchObject({ ok: false, error: { kind: 'invalid_client_id' } });
  });

  it('encodes the username as base64 of the JSON and reads it back', () => {
    expect(encodeUsername({ ip: 'unknown' })).toBe('eyJpcCI6InVua25vd24ifQ==');
    expect(decodeUsername('eyJpcCI6ICJ1bmtub3duIn0=')).toEqual({ ok: true, value: { ip: 'unknown' } });
  });

  it.each([
    '',
    'not base64!',
    'eyJpcCI6InVua25vd24ifQ',
    Buffer.from('[1]').toString('base64'),
    Buffer.from('{').toString('base64'),
  ])('refuses the username %j without throwing', (username) => {
    expect(decodeUsername(username)).toMatchObject({ ok: false, error: { kind: 'invalid_username' } });
  });
});
