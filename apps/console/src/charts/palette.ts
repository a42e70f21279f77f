import type { CampaignTargetState, Verdict } from '@fleet/api-contract';

// Chart colours: one per verdict and per campaign target state, matching the badges' tones.
export const VERDICT_COLOR: Record<Verdict, string> = {
  verified: '#1f9d55',
  acknowledged: '#d4a72c',
  effect_mismatch: '#d1442f',
  device_error: '#a1263a',
  no_response: '#e08a1e',
  undelivered: '#7b8794',
  rejected: '#52606d',
  invalid_arguments: '#9aa5b1',
  expired: '#b8c2cc',
  cancelled: '#cbd2d9',
};

export const TARGET_COLOR: Record<CampaignTargetState, string> = {
  pending: '#cbd2d9',
  waiting_for_device: '#d4a72c',
  in_progress: '#3b82f6',
  verified: '#1f9d55',
  acknowledged: '#84cc16',
  failed: '#d1442f',
  skipped: '#9aa5b1',
  cancelled: '#7b8794',
  rejected: '#8b5cf6',
};

const SERIES = ['#3b82f6', '#8b5cf6', '#14b8a6', '#f59e0b', '#ec4899', '#64748b', '#22c55e', '#ef4444'];

/** A stable colour for the n-th item of an open-ended list (boards, firmware versions). */
export function seriesColor(n: number): string {
  return SERIES[n % SERIES.length]!;
}
