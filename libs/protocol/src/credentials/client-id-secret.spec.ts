import { createHash } from 'node:crypto';
import {
  clientIdFingerprint,
  hashClientId,
  isFirmwareClientId,
  redactMqttClientId,
} from './client-id-secret';

const UUID = 'aeebef32-f0ef-4bce-9d8a-894d91bc6932';

describe('the Client-Id as a device secret', () => {
  it('accepts only a UUID as the firmware makes it', () => {
    expect(isFirmwareClientId(UUID)).toBe(true);
    expect(isFirmwareClientId(UUID.toUpperCase())).toBe(true);
    for (const other of [
      'x'.repeat(8000),
      `${UUID}0`,
      UUID.slice(1),
      hashClientId(UUID),
      'a0:85:e3:f4:49:34',
    ]) {
      expect(isFirmwareClientId(other)).toBe(false);
    }
  });

  it('hashes the lower-cased UUID with SHA-256, as the migration does in SQL', () => {
    const sql = createHash('sha256').update(UUID, 'utf8').digest('hex');
    expect(hashClientId(UUID)).toBe(sql);
    expect(hashClientId(UUID.toUpperCase())).toBe(sql);
    expect(clientIdFingerprint(UUID)).toBe(sql.slice(0, 8));
  });

  it('shows an MQTT client id in logs with its uuid part as a fingerprint only', () => {
    const redacted = redactMqttClientId(`GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@${UUID}`);
    expect(redacted).toBe(`GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@#${clientIdFingerprint(UUID)}`);
    expect(redactMqttClientId(UUID)).not.toContain(UUID);
    expect(redactMqttClientId(`GID_x@@@${'a'.repeat(8000)}`).length).toBeLessThan(130);
  });
});
