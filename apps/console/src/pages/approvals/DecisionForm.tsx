import { useState } from 'react';
import { approvalsApi } from '../../api/approvals-api';
import { callsApi } from '../../api/calls-api';
import type { Approval } from '@fleet/api-contract';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';

/**
 * Approve or reject, with a reason (required to reject). Four-eyes: the person who asked cannot decide;
 * the buttons say so, and offer to withdraw the request instead.
 */
export function DecisionForm({
  approval,
  mine,
  onDecided,
}: {
  approval: Approval;
  mine: boolean;
  onDecided: () => void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const blocked = mine ? t('approvals.own_request') : undefined;

  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
      onDecided();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="decision">
      <input
        aria-label={t('approvals.reason')}
        placeholder={t('approvals.reason_hint')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        disabled={mine}
      />
      <GatedButton
        action="approval.decide"
        blockedBy={blocked}
        className="primary"
        disabled={busy}
        onClick={() => void act(() => approvalsApi.approve(approval.id, reason.trim() || undefined))}
      >
        {t('approvals.approve')}
      </GatedButton>
      <GatedButton
        action="approval.decide"
        blockedBy={blocked ?? (reason.trim() ? undefined : t('approvals.reject_needs_reason'))}
        quiet
        className="danger"
        disabled={busy}
        onClick={() => void act(() => approvalsApi.reject(approval.id, reason.trim()))}
      >
        {t('approvals.reject')}
      </GatedButton>
      {mine && approval.callId && (
        <GatedButton
          action="call.cancel"
          disabled={busy}
          onClick={() => void act(() => callsApi.cancel(approval.callId!, t('approvals.withdrawn')))}
        >
          {t('approvals.withdraw')}
        </GatedButton>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
