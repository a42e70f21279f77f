import { request } from './http';
import type { Call, CallFilters, CallSummary, Page } from '@fleet/api-contract';

export const callsApi = {
  get: (id: string) => request<Call>('GET', `/calls/${id}`),
  list: (filters: CallFilters, limit = 50, cursor?: string) =>
    request<Page<CallSummary>>('GET', '/calls', { query: { ...filters, limit, cursor } }),
  cancel: (id: string, reason: string) =>
    request<{ id: string; state: 'finished' }>('POST', `/calls/${id}/cancel`, {
      body: { reason },
      idempotent: true,
    }),
};
