import { hashPassword, verifyPassword } from './password';
import { roleAllows } from './roles';

describe('passwords', () => {
  it('verify only the password that was hashed, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).not.toBe(b);
    await expect(verifyPassword('correct horse battery staple', a)).resolves.toBe(true);
    await expect(verifyPassword('Correct horse battery staple', a)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'plain-text-from-elsewhere')).resolves.toBe(false);
  });
});

describe('roles', () => {
  it('rank viewer below operator below admin', () => {
    expect(roleAllows('admin', 'operator')).toBe(true);
    expect(roleAllows('operator', 'operator')).toBe(true);
    expect(roleAllows('viewer', 'operator')).toBe(false);
    expect(roleAllows('operator', 'admin')).toBe(false);
  });
});
