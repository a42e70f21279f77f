import { useState } from 'react';
import { callsApi } from '../../api/calls-api';
import type { Call } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { DeviceText } from '../../components/DeviceText';
import { ErrorNote } from '../../components/ErrorNote';
import { Facts } from '../../components/Facts';
import { GatedButton } from '../../components/Gated';
import { JsonBlock } from '../../components/JsonBlock';
import { DateTime } from '../../components/Time';
import { VerdictBadge } from '../../components/VerdictBadge';
import { explainVerdict } from '../../evidence/explain';
import { useI18n } from '../../i18n/i18n';

const CANCELLABLE: readonly Call['state'][] = ['queued', 'awaiting_approval', 'waiting_for_device'];

export function CallHeader({ call, onChanged }: { call: Call; onChanged: () => void }) {
  const { t } = useI18n();
  return (
    <header className="page-head">
      <h1>
        <code>
          <DeviceText text={call.tool} />
        </code>{' '}
        <VerdictBadge verdict={call.verdict} state={call.state} />
      </h1>
      <p
        className={`explanation ${call.verdict ? `verdict-${call.verdict}` : ''}`}
        data-testid="verdict-explanation"
      >
        <DeviceText text={explainVerdict(call, t)} />
      </p>
      {call.verdict && (
        <p className="muted small">{t('call.meaning', { meaning: t(`verdict.meaning.${call.verdict}`) })}</p>
      )}
      {call.rolledBackLater && (
        <p className="explanation verdict-effect_mismatch" data-testid="rolled-back-later">
          {t('call.rolled_back_later', {
            reported: call.rolledBackLater.reportedVersion,
            reached: call.rolledBackLater.reachedVersion,
          })}{' '}
          <DateTime at={call.rolledBackLater.detectedAt} />
        </p>
      )}
      <Facts
        items={[
          [
            t('call.device'),
            <Link to={paths.device(call.deviceId)} className="mono">
              {call.deviceId}
            </Link>,
          ],
          [t('call.state'), t(`call.state.${call.state}`)],
          [t('call.origin'), t(`origin.${call.origin}`)],
          [t('call.created'), <DateTime at={call.createdAt} />],
          [t('call.sent'), <DateTime at={call.sentAt} />],
          [t('call.sealed'), <DateTime at={call.sealedAt} />],
          [t('call.reason'), <DeviceText text={call.reason ?? '—'} />],
          [t('call.arguments'), <JsonBlock value={call.arguments} label={t('call.arguments')} />],
        ]}
      />
      {call.prerequisites.length > 0 && (
        <p className="small">
          {t('call.prerequisites')}{' '}
          {call.prerequisites.map((p) => (
            <Link key={p.id} to={paths.call(p.id)}>
              <code>
                <DeviceText text={p.tool} />
              </code>{' '}
              <VerdictBadge verdict={p.verdict} state={p.state} />
            </Link>
          ))}
        </p>
      )}
      {CANCELLABLE.includes(call.state) && <CancelCall call={call} onDone={onChanged} />}
    </header>
  );
}

function CancelCall({ call, onDone }: { call: Call; onDone: () => void }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const cancel = async () => {
    try {
      await callsApi.cancel(call.id, reason.trim() || t('call.cancel_default_reason'));
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div className="inline-form">
      <input
        placeholder={t('call.cancel_reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <GatedButton action="call.cancel" onClick={() => void cancel()}>
        {t('call.cancel')}
      </GatedButton>
      <ErrorNote error={error} />
    </div>
  );
}
