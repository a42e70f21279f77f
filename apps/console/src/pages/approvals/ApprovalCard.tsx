import type { ReactNode } from 'react';
import type { Approval, Person } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { useMe } from '../../auth/session';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { Facts } from '../../components/Facts';
import { JsonBlock } from '../../components/JsonBlock';
import { Ago, DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import { isolatedText } from '../../text/device-text';
import { DecisionForm } from './DecisionForm';

/** One approval: the device, the tool, the exact arguments it binds, who asked and why; and the decision. */
export function ApprovalCard({ approval: a, onDecided }: { approval: Approval; onDecided: () => void }) {
  const { t } = useI18n();
  const me = useMe();
  const mine = a.requestedBy.id === me.id;
  const target = a.deviceId ? (
    <Link to={paths.device(a.deviceId)} className="mono">
      {a.deviceId}
    </Link>
  ) : a.campaign ? (
    <Link to={paths.campaign(a.campaign.id)}>
      {t('approvals.campaign', { name: isolatedText(a.campaign.name) })}
    </Link>
  ) : (
    '—'
  );
  return (
    <Card
      className="approval"
      title={
        <>
          <code data-testid="approval-tool">
            <DeviceText text={a.tool} />
          </code>{' '}
          {a.state === 'pending' && a.effectiveState === 'expired' && (
            <Badge tone="neutral">{t('approval.state.expired')}</Badge>
          )}
        </>
      }
      actions={a.callId && <Link to={paths.call(a.callId)}>{t('approvals.open_call')}</Link>}
    >
      <div data-approval={a.id} data-device={a.deviceId ?? ''} data-tool={a.tool}>
        <Facts
          items={[
            [a.campaign ? t('approvals.campaign_label') : t('call.device'), target],
            [t('call.arguments'), <JsonBlock value={a.arguments} label={t('call.arguments')} />],
            [
              t('call.asked_by'),
              <span data-testid="requester" title={a.requestedBy.email}>
                {mine ? t('common.you', { name: a.requestedBy.name }) : personLabel(a.requestedBy)}
              </span>,
            ],
            [t('approvals.asked_at'), <Ago at={a.createdAt} />],
            [t('call.reason'), <DeviceText text={a.call?.reason ?? '—'} />],
            [t('approvals.expires'), <DateTime at={a.expiresAt} />],
            ...(a.decidedBy
              ? ([
                  [
                    t('approvals.decided_by'),
                    <>
                      {a.decidedBy.name} · {t(`approval.state.${a.state}`)}
                      {a.reason ? ': ' : ''}
                      <DeviceText text={a.reason} />
                    </>,
                  ],
                ] as [string, ReactNode][])
              : []),
          ]}
        />
        {a.effectiveState === 'pending' && <DecisionForm approval={a} mine={mine} onDecided={onDecided} />}
      </div>
    </Card>
  );
}

/** "Bob Li (bob@example.com)", or the email alone when the name is the email. */
function personLabel(p: Person): string {
  return p.name === p.email ? p.email : `${p.name} (${p.email})`;
}
