import { z } from 'zod';
import { instant } from './common';

// GET /firmware/:id/health: a release judged by what the platform observed (libs/domain release-health).

const share = z.number().min(0).nullable();

export const versionHealthSchema = z.strictObject({
  version: z.string(),
  devices: z.int(),
  deviceHours: z.number(),
  upgrades: z
    .strictObject({
      attempted: z.int(),
      verified: z.int(),
      effectMismatch: z.int(),
      failed: z.int(),
      regressions: z.int().describe('verified upgrades a device later came back from on an older version'),
      effectMismatchShare: share,
      regressionShare: share,
    })
    .nullable()
    .describe('null: no image of this version is in the registry, so no upgrade was made to it'),
  reconnectsPerDeviceHour: z.number().nullable(),
  offlineShare: share.describe('share of its device-hours spent offline'),
  deviceErrorShare: share,
  noResponseShare: share,
  calls: z.int(),
});

export const releaseHealthSchema = z.strictObject({
  firmwareId: z.uuid(),
  window: z.strictObject({ since: instant, until: instant, regressionWithinHours: z.int() }),
  boards: z.array(z.string()).describe('the boards it ran on; the baseline is read on the same boards'),
  release: versionHealthSchema,
  baseline: versionHealthSchema
    .nullable()
    .describe('the version it replaced on those boards (null: none seen)'),
  status: z.enum(['healthy', 'degraded', 'insufficient_data']),
  findings: z.array(
    z.strictObject({
      signal: z.enum([
        'effect_mismatch_share',
        'regressions',
        'reconnects_per_device_hour',
        'offline_share',
        'device_error_share',
        'no_response_share',
      ]),
      value: z.number(),
      baseline: z.number().nullable(),
      detail: z.string(),
    }),
  ),
});
export type ReleaseHealthView = z.infer<typeof releaseHealthSchema>;
