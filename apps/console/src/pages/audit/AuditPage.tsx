import { useState } from 'react';
import { reportsApi, type Period } from '../../api/reports-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import { AuditReportView } from './AuditReportView';
import { CsvDownloads } from './CsvDownloads';
import { IntegrityCard } from './IntegrityCard';
import { PeriodPicker } from './PeriodPicker';
import { presetPeriod } from './period';

/** The audit report for a period, its CSV, and the evidence chains' integrity check. */
export function AuditPage() {
  const { t } = useI18n();
  const [period, setPeriod] = useState<Period>(() => presetPeriod('day'));
  const report = useAsync(() => reportsApi.audit(period), [period.from, period.to]);
  return (
    <div data-page="audit">
      <h1>{t('audit.title')}</h1>
      <PeriodPicker period={period} onChange={setPeriod} />
      <CsvDownloads period={period} />
      <ErrorNote error={report.error} />
      {report.data ? <AuditReportView report={report.data} /> : !report.error && <Loading />}
      <IntegrityCard />
    </div>
  );
}
