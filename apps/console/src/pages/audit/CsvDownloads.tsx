import { reportsApi, type Period } from '../../api/reports-api';
import type { AuditCsvSection } from '@fleet/api-contract';
import { useI18n } from '../../i18n/i18n';

const SECTIONS: AuditCsvSection[] = ['calls', 'approvals', 'campaigns', 'summary'];

/** Plain links: the browser downloads the CSV the API streams (the session cookie authenticates it). */
export function CsvDownloads({ period }: { period: Period }) {
  const { t } = useI18n();
  return (
    <p className="downloads">
      {t('audit.download')}{' '}
      {SECTIONS.map((s) => (
        <a
          key={s}
          className="button"
          href={reportsApi.auditCsvUrl(period, s)}
          download
          data-testid={`csv-${s}`}
        >
          {t(`audit.section.${s}`)} CSV
        </a>
      ))}
    </p>
  );
}
