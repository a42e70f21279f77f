import type { ReleaseCampaignList, ReleaseHealthView } from '@fleet/api-contract';
import { request } from './http';

export const releasesApi = {
  health: (firmwareId: string, windowH?: number) =>
    request<ReleaseHealthView>('GET', `/firmware/${firmwareId}/health`, { query: { windowH } }),
  /** Its campaigns, each with the one it undoes and the rollback that undid it. */
  campaigns: (firmwareId: string) => request<ReleaseCampaignList>('GET', `/firmware/${firmwareId}/campaigns`),
};
