import type { CallState, Verdict } from '@fleet/api-contract';
import { VERDICT_TONE } from '../domain/constants';
import { useI18n } from '../i18n/i18n';
import { Badge } from './Badge';

/** A call's verdict, or its state while it has none; the verdict's meaning is the tooltip. */
export function VerdictBadge({ verdict, state }: { verdict: Verdict | null; state?: CallState }) {
  const { t } = useI18n();
  if (!verdict) return <Badge tone="busy">{state ? t(`call.state.${state}`) : '…'}</Badge>;
  return (
    <Badge tone={VERDICT_TONE[verdict]} title={t(`verdict.meaning.${verdict}`)}>
      <span data-verdict={verdict}>{t(`verdict.${verdict}`)}</span>
    </Badge>
  );
}
