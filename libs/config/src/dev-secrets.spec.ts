import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevSecrets, SERVICE_IDENTITIES } from './dev-secrets';

describe('development secrets', () => {
  it('are created once and then kept, so devices keep their credentials across restarts', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'secrets-')), '.local', 'dev-secrets.json');
    const first = loadOrCreateDevSecrets(path);
    const second = loadOrCreateDevSecrets(path);
    expect(second).toEqual(first);
    expect(Object.keys(first.services).sort()).toEqual([...SERVICE_IDENTITIES].sort());
    expect((JSON.parse(readFileSync(path, 'utf8')) as { deviceSigningKey: string }).deviceSigningKey).toBe(
      first.deviceSigningKey,
    );
  });
});
