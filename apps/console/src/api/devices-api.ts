import { request } from './http';
import type {
  CallCreated,
  CatalogDiff,
  CatalogVersion,
  Connection,
  DeviceCatalog,
  DeviceDetail,
  DeviceFilters,
  DeviceSummary,
  IssuedLinkToken,
  Marking,
  Page,
} from '@fleet/api-contract';

export const devicesApi = {
  /** A page of the fleet (keyset cursor: fast at any size). */
  list: (filters: DeviceFilters, limit: number, cursor?: string, signal?: AbortSignal) =>
    request<Page<DeviceSummary>>('GET', '/devices', {
      query: { ...filters, limit, cursor },
      ...(signal ? { signal } : {}),
    }),
  get: (id: string) => request<DeviceDetail>('GET', `/devices/${encodeURIComponent(id)}`),
  presence: (id: string, limit = 20) =>
    request<Page<Connection>>('GET', `/devices/${encodeURIComponent(id)}/presence`, { query: { limit } }),
  tools: (id: string) => request<DeviceCatalog>('GET', `/devices/${encodeURIComponent(id)}/tools`),
  catalogs: (id: string) => request<CatalogVersion[]>('GET', `/devices/${encodeURIComponent(id)}/catalogs`),
  catalogDiff: (id: string, from: number, to: number) =>
    request<CatalogDiff>('GET', `/devices/${encodeURIComponent(id)}/catalogs/diff`, { query: { from, to } }),
  /** Registers a ListenAI device; the answer carries its link token, once. */
  register: (body: { id: string; dialect: 'listenai'; model?: string }) =>
    request<IssuedLinkToken>('POST', '/devices', { body }),
  replaceLinkToken: (id: string) =>
    request<IssuedLinkToken>('POST', `/devices/${encodeURIComponent(id)}/link-token`),
  revokeLinkTokens: (id: string) =>
    request<{ deviceId: string; revokedTokens: string[] }>(
      'POST',
      `/devices/${encodeURIComponent(id)}/link-token/revoke`,
    ),
  /** An operator's marking of one tool; a field left out keeps its value, `readOnly: null` clears it. */
  markTool: (id: string, tool: string, body: { sensitive?: boolean; readOnly?: boolean | null }) =>
    request<Marking>('PUT', `/devices/${encodeURIComponent(id)}/tools/${encodeURIComponent(tool)}`, { body }),
  call: (id: string, body: { tool: string; arguments: Record<string, unknown>; reason?: string }) =>
    request<CallCreated>('POST', `/devices/${encodeURIComponent(id)}/calls`, { body, idempotent: true }),
};
