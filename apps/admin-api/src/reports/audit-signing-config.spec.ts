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
    SEAL_PUBLIC_KEYS: 'voice-fleet-orchestrator+a4c6f7e6+AepKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs',
    CHECKPOINT_DIR: '/var/lib/voice-fleet/checkpoints',
    MCP_STATE_KEY: 'k'.repeat(32),
  };

  it('is required for a production start, which refuses and names the variable', () => {
    expect(problemsOf(production)).toEqual([
      { variable: 'AUDIT_SIGNING_KEY', message: 'required in production' },
    ]);
    expect(problemsOf({ ...production, AUDIT_SIGNING_KEY: Buffer.alloc(32, 1).toString('base64') })).toEqual(
      [],
    );
  });

  it('makes a production start list the accepted seal keys and name the checkpoint directory', () => {
    const { SEAL_PUBLIC_KEYS: _keys, CHECKPOINT_DIR: _dir, ...bare } = production;
    expect(problemsOf({ ...bare, AUDIT_SIGNING_KEY: Buffer.alloc(32, 1).toString('base64') })).toEqual([
      { variable: 'SEAL_PUBLIC_KEYS', message: 'required in production' },
      { variable: 'CHECKPOINT_DIR', message: 'required in production' },
    ]);
    expect(
      problemsOf({
        SEAL_PUBLIC_KEYS: 'voice-fleet-orchestrator+00000000+AepKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs',
      }),
    ).toEqual([{ variable: 'SEAL_PUBLIC_KEYS', message: 'its hash is not that of its name and key' }]);
  });

  it('is refused when it is not an Ed25519 key', () => {
    expect(problemsOf({ AUDIT_SIGNING_KEY: 'not-a-key' })).toEqual([
      { variable: 'AUDIT_SIGNING_KEY', message: expect.stringContaining('32 bytes') },
    ]);
  });
});
