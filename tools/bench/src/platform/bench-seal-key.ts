import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealSigner } from '@fleet/audit-export';

/**
 * Production refuses to start without a seal signing key (the orchestrator) and the keys it accepts (the admin
 * API), nor the admin API without a directory for its checkpoints: one fresh key per benchmark run, the same for
 * both processes, and a directory of the run's own.
 */
const SEAL_SIGNING_KEY = randomBytes(32).toString('base64');

export const benchSealEnv = {
  orchestrator: { SEAL_SIGNING_KEY },
  adminApi: {
    SEAL_PUBLIC_KEYS: sealSigner(SEAL_SIGNING_KEY).verifierKey,
    CHECKPOINT_DIR: join(tmpdir(), `bench-checkpoints-${process.pid}`),
  },
};
