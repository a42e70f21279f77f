import { request } from './http';
import type { ToolProfile, ToolProfileProposal } from '@fleet/api-contract';

/** Tool profiles per device model and catalog, and the pairings the platform proposes for them. */
export const toolProfilesApi = {
  list: () => request<ToolProfile[]>('GET', '/tool-profiles'),
  remove: (id: string) => request<ToolProfile>('DELETE', `/tool-profiles/${encodeURIComponent(id)}`),
  proposals: () =>
    request<ToolProfileProposal[]>('GET', '/tool-profiles/proposals', { query: { state: 'pending' } }),
  accept: (id: string) =>
    request<unknown>('POST', `/tool-profiles/proposals/${encodeURIComponent(id)}/accept`, { body: {} }),
  reject: (id: string) =>
    request<unknown>('POST', `/tool-profiles/proposals/${encodeURIComponent(id)}/reject`),
};
