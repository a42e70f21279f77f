import { type ConfigError } from '@fleet/config';
import { loadAdminApiConfig } from '../config';

describe('the audit signing key in the configuration', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadAdminApiConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  // Everything else a production start needs, so that only the audit key is missing.
  const production = {
    NODE_ENV: 'production',
    EFUSE_WRAPPING_KEYS: 'ab'.repeat(32),
    MCP_STATE_KEY: 'cd'.repeat(32),
  };

  it('is required for a production start, which refuses and names the variable', () => {
    expect(problemsOf(production)).toEqual([
      { variable: 'AUDIT_SIGNING_KEY', message: 'required in production' },
    ]);
    expect(problemsOf({ ...production, AUDIT_SIGNING_KEY: Buffer.alloc(32, 1).toString('base64') })).toEqual(
      [],
    );
  });

  it('is refused when it is not an Ed25519 key', () => {
    expect(problemsOf({ AUDIT_SIGNING_KEY: 'not-a-key' })).toEqual([
      { variable: 'AUDIT_SIGNING_KEY', message: expect.stringContaining('32 bytes') },
    ]);
  });
});
