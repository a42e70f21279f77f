import type { ReleaseHealthView } from '@fleet/api-contract';
import { request } from './http';

export const releasesApi = {
  health: (firmwareId: string, windowH?: number) =>
    request<ReleaseHealthView>('GET', `/firmware/${firmwareId}/health`, { query: { windowH } }),
};
