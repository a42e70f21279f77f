import { apiUrl, request } from './http';
import type { AuditCsvSection, AuditReport, IntegrityReport } from '@fleet/api-contract';

export interface Period {
  from: string;
  to: string;
}

export const reportsApi = {
  audit: (period: Period, signal?: AbortSignal) =>
    request<AuditReport>('GET', '/reports/audit', {
      query: { ...period, format: 'json' },
      ...(signal ? { signal } : {}),
    }),
  /** A link the browser downloads itself (the session cookie authenticates it; the API streams the CSV). */
  auditCsvUrl: (period: Period, section: AuditCsvSection) =>
    apiUrl('/reports/audit', { ...period, format: 'csv', section }),
  integrity: () => request<IntegrityReport>('GET', '/reports/integrity'),
};
