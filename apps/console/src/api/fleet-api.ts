import { request } from './http';
import type { FleetSummary } from '@fleet/api-contract';

export const fleetApi = {
  /** The fleet at a glance, and calls by verdict over the window in intervals of `bucketS`. */
  summary: (windowS: number, bucketS: number) =>
    request<FleetSummary>('GET', '/fleet/summary', { query: { windowS, bucketS } }),
};
