import { approvalsApi } from '../../api/approvals-api';
import type { Call } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { Facts } from '../../components/Facts';
import { DateTime } from '../../components/Time';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import { payloadOf } from '../../evidence/rows';
import { PersonName } from './PersonName';

/** Who asked (a person, the voice assistant, a campaign, an agent) and, for a gated call, who decided. */
export function CallPeople({ call }: { call: Call }) {
  const { t } = useI18n();
  const approval = useAsync(
    () => (call.approval ? approvalsApi.get(call.approval.id) : Promise.resolve(undefined)),
    [call.approval?.id, call.approval?.state],
  );
  const asked = payloadOf(call, 'decision')?.requestedBy;
  const a = approval.data;
  const items: [string, React.ReactNode][] = [
    [t('call.asked_by'), a ? a.requestedBy.name : <Requester call={call} />],
    [t('call.origin'), t(`origin.${call.origin}`)],
  ];
  if (asked?.campaignId) items.push([t('call.campaign'), <span className="mono">{asked.campaignId}</span>]);
  if (asked?.voiceTurnId)
    items.push([t('call.voice_turn'), <span className="mono">{asked.voiceTurnId}</span>]);
  if (call.approval) {
    items.push([t('call.approval'), t(`approval.state.${call.approval.state}`)]);
    items.push([
      call.approval.state === 'rejected' ? t('call.rejected_by') : t('call.approved_by'),
      a?.decidedBy ? <span data-testid="approved-by">{a.decidedBy.name}</span> : '—',
    ]);
    items.push([t('call.decided_at'), <DateTime at={call.approval.decidedAt} />]);
    if (call.approval.reason) items.push([t('call.decision_reason'), call.approval.reason]);
  }
  if (call.cancelledBy) items.push([t('call.cancelled_by'), <PersonName id={call.cancelledBy} />]);
  return (
    <Card title={t('call.people')}>
      <Facts items={items} />
    </Card>
  );
}

function Requester({ call }: { call: Call }) {
  const { t } = useI18n();
  if (call.operatorId) return <PersonName id={call.operatorId} />;
  return <>{t(`origin.${call.origin}`)}</>;
}
