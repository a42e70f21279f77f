import { request } from './http';
import type { ApiKey, CreatedApiKey, Group, OperatorView, Role } from '@fleet/api-contract';

export interface NewApiKey {
  operatorId: string;
  name: string;
  role: Role;
  /** Device group ids the key is bounded to; absent: the whole fleet. */
  groups?: string[];
}

/** API keys and what creating one needs to offer (people, device groups). Admin only. */
export const apiKeysApi = {
  list: () => request<ApiKey[]>('GET', '/api-keys'),
  create: (key: NewApiKey) => request<CreatedApiKey>('POST', '/api-keys', { body: key }),
  operators: () => request<OperatorView[]>('GET', '/operators'),
  groups: () => request<Group[]>('GET', '/groups'),
};
