import { appImageDefaults } from './app-image';
import { crashesAt, initialFlash, markValid, powerOn, writeNextSlot } from './flash-slots';

const OLD = appImageDefaults({ version: '2.4.2' });
const NEW = appImageDefaults({ version: '2.5.0' });

describe('the OTA slots and the bootloader rollback', () => {
  it('boots a written image once as pending verify, and keeps it once it is marked valid', () => {
    const written = writeNextSlot(initialFlash(OLD), NEW);
    expect(written).toMatchObject({ boot: 'ota_1', running: 'ota_0', bootState: 'new' });
    const first = powerOn(written);
    expect(first).toMatchObject({
      rolledBack: false,
      flash: { running: 'ota_1', bootState: 'pending_verify' },
    });
    const valid = markValid(first.flash);
    expect(powerOn(valid)).toMatchObject({
      rolledBack: false,
      flash: { running: 'ota_1', bootState: 'valid' },
    });
  });

  it('rolls back to the previous slot when the new image reboots before confirming itself', () => {
    const first = powerOn(writeNextSlot(initialFlash(OLD), NEW)).flash;
    expect(powerOn(first)).toMatchObject({
      rolledBack: true,
      flash: { running: 'ota_0', boot: 'ota_0', bootState: 'valid' },
    });
  });

  it('writes the slot after the running one, alternating', () => {
    const onOne = markValid(powerOn(writeNextSlot(initialFlash(OLD), NEW)).flash);
    expect(writeNextSlot(onOne, OLD)).toMatchObject({ boot: 'ota_0', slots: { ota_0: OLD, ota_1: NEW } });
  });

  it('knows when the running image is one configured to crash', () => {
    const pending = powerOn(writeNextSlot(initialFlash(OLD), { ...NEW, crash: 'before-check-in' })).flash;
    expect(crashesAt(pending, 'before-check-in')).toBe(true);
    expect(crashesAt(pending, 'after-check-in')).toBe(false);
    expect(crashesAt(markValid(pending), 'before-check-in')).toBe(false);
  });
});
