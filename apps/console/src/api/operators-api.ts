import { request } from './http';
import type { Operator } from './types';

export const operatorsApi = {
  /** One operator (admin only). */
  get: (id: string) => request<Operator>('GET', `/operators/${id}`),
};
