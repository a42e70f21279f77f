import { StackedColumns } from '../../charts/StackedColumns';
import { VERDICT_COLOR } from '../../charts/palette';
import { Card } from '../../components/Card';
import { VERDICTS } from '../../domain/constants';
import { useI18n } from '../../i18n/i18n';
import { useVerdictTimeline } from './useVerdictTimeline';

export function VerdictTimelineCard() {
  const { t, lang } = useI18n();
  const { buckets, loading } = useVerdictTimeline();
  const time = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });
  const total = buckets.reduce(
    (sum, b) => sum + Object.values(b.counts).reduce((a, n) => a + (n ?? 0), 0),
    0,
  );
  return (
    <Card title={t('overview.verdicts')} className="wide">
      <p className="muted">{loading ? t('common.loading') : t('overview.verdicts_hint', { total })}</p>
      <StackedColumns
        label={t('overview.verdicts')}
        columns={buckets.map((b) => ({ label: time.format(b.start), values: b.counts }))}
        series={VERDICTS.map((v) => ({ key: v, label: t(`verdict.${v}`), color: VERDICT_COLOR[v] }))}
      />
    </Card>
  );
}
