import { request } from './http';
import type { Approval, ApprovalState, Decision, Page } from '@fleet/api-contract';

export const approvalsApi = {
  list: (state: ApprovalState = 'pending', limit = 100) =>
    request<Page<Approval>>('GET', '/approvals', { query: { state, limit } }),
  get: (id: string) => request<Approval>('GET', `/approvals/${id}`),
  approve: (id: string, reason?: string) =>
    request<Decision>('POST', `/approvals/${id}/approve`, {
      body: reason ? { reason } : {},
      idempotent: true,
    }),
  reject: (id: string, reason: string) =>
    request<Decision>('POST', `/approvals/${id}/reject`, { body: { reason }, idempotent: true }),
};
