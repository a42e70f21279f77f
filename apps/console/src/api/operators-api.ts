import { request } from './http';
import type { OperatorView } from '@fleet/api-contract';

export const operatorsApi = {
  /** One operator (admin only). */
  get: (id: string) => request<OperatorView>('GET', `/operators/${id}`),
};
