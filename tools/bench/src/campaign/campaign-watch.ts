import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { say } from '../harness/report';
import type { AdminClient } from './admin-client';

/** GET /campaigns/:id as far as the benchmark reads it (zod: the API is a boundary). */
const campaignView = z.object({
  state: z.string(),
  stateReason: z.string().nullable(),
  progress: z.object({
    total: z.number(),
    pending: z.number(),
    waiting_for_device: z.number(),
    in_progress: z.number(),
    verified: z.number(),
    failed: z.number(),
    skipped: z.number(),
    cancelled: z.number(),
  }),
});
export type CampaignProgress = z.infer<typeof campaignView>['progress'];

export interface ProgressPoint {
  /** Seconds since the campaign was approved (it runs from then on). */
  at: number;
  verified: number;
  failed: number;
  inProgress: number;
}

export interface CampaignWatch {
  state: string;
  stateReason: string | null;
  progress: CampaignProgress;
  /** Approval to the campaign's last device settled (verified, failed or skipped). */
  seconds: number;
  /** Most devices in progress at once, as the API reported them. */
  inProgressMax: number;
  timeline: ProgressPoint[];
}

const FINAL = new Set(['completed', 'aborted', 'cancelled']);

/** Polls the campaign through the API (as the console does) until it is completed, aborted or cancelled. */
export async function watchCampaign(
  api: AdminClient,
  id: string,
  approvedAt: number,
  o: { timeoutMs: number; everyMs: number },
): Promise<CampaignWatch> {
  const timeline: ProgressPoint[] = [];
  let inProgressMax = 0;
  let lastSaid = 0;
  for (;;) {
    const view = campaignView.parse(await api.expect(200, 'GET', `/campaigns/${id}`));
    const now = performance.now();
    const p = view.progress;
    inProgressMax = Math.max(inProgressMax, p.in_progress);
    timeline.push({
      at: (now - approvedAt) / 1000,
      verified: p.verified,
      failed: p.failed,
      inProgress: p.in_progress,
    });
    if (now - lastSaid > 5_000) {
      lastSaid = now;
      say(
        `  ${view.state}: verified ${p.verified}, in progress ${p.in_progress}, failed ${p.failed}, ` +
          `pending ${p.pending + p.waiting_for_device} of ${p.total}`,
      );
    }
    if (FINAL.has(view.state)) {
      // The last poll may be up to `everyMs` late: the end is when the last device was counted as settled.
      const end = timeline.find((t) => t.verified + t.failed >= p.verified + p.failed)?.at ?? 0;
      return {
        state: view.state,
        stateReason: view.stateReason,
        progress: p,
        seconds: end,
        inProgressMax,
        timeline,
      };
    }
    if (now - approvedAt > o.timeoutMs)
      throw new Error(`campaign still ${view.state} after ${o.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, o.everyMs));
  }
}

/**
 * Devices per minute verified between the moments 10 % and 90 % of the fleet were verified: the rollout's steady
 * pace, without the first batch's ramp-up and the last stragglers.
 */
export function steadyPerMinute(timeline: readonly ProgressPoint[], total: number): number | undefined {
  const first = timeline.find((t) => t.verified >= total * 0.1);
  const last = timeline.find((t) => t.verified >= total * 0.9);
  if (!first || !last || last.at <= first.at) return undefined;
  return ((last.verified - first.verified) / (last.at - first.at)) * 60;
}
