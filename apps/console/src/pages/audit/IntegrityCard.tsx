import { useState } from 'react';
import { reportsApi } from '../../api/reports-api';
import type { IntegrityReport } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { useI18n } from '../../i18n/i18n';

/** Re-walks every device's evidence hash chain on request (it reads every row, so it is not run on load). */
export function IntegrityCard() {
  const { t, number } = useI18n();
  const [result, setResult] = useState<IntegrityReport>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResult(await reportsApi.integrity());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      title={t('integrity.title')}
      actions={
        <button onClick={() => void check()} disabled={busy}>
          {t('integrity.check')}
        </button>
      }
    >
      <p className="muted small">{t('integrity.hint')}</p>
      <ErrorNote error={error} />
      {result && (
        <div data-testid="integrity-result" data-ok={result.ok}>
          <p className={result.ok ? 'tone-good-text' : 'error-note'}>
            {result.ok ? t('integrity.ok') : t('integrity.broken', { n: result.broken.length })}{' '}
            {result.sealMismatchCount > 0 && t('integrity.seal_mismatches', { n: result.sealMismatchCount })}{' '}
            {result.sealSignatureProblemCount > 0 &&
              t('integrity.unsigned_seals', { n: result.sealSignatureProblemCount })}{' '}
            {result.checkpoint &&
              result.checkpoint.problems.length > 0 &&
              t('integrity.checkpoint_problems', { n: result.checkpoint.problems.length })}{' '}
            {t('integrity.checked', {
              devices: number(result.checkedDevices),
              rows: number(result.checkedRows),
              heads: number(result.checkedHeads),
            })}
          </p>
          {result.broken.map((b) => (
            <p key={b.evidenceId} className="error-note">
              <span className="mono">{b.deviceId}</span> #{b.seq} (
              {b.stage === 'seal' ? t('integrity.seal_link') : t(`stage.${b.stage}`)}) — {b.problem}:{' '}
              {b.detail} <Link to={paths.call(b.callId)}>{t('approvals.open_call')}</Link>
            </p>
          ))}
          {result.sealSignatureProblems.map((s) => (
            <p key={s.evidenceId} className="error-note">
              <span className="mono">{s.deviceId}</span> #{s.sealSeq} ({t('integrity.seal_link')}) —{' '}
              {s.problem}: {s.detail} <Link to={paths.call(s.callId)}>{t('approvals.open_call')}</Link>
            </p>
          ))}
          {result.checkpoint?.problems.map((c) => (
            <p key={`${c.deviceId}/${c.seq}`} className="error-note">
              <span className="mono">{c.deviceId}</span> #{c.seq} — {c.problem}: {c.detail}
            </p>
          ))}
          {result.checkpoint && (
            <p className="muted small">
              {t('integrity.checkpoint', {
                origin: result.checkpoint.origin,
                size: number(result.checkpoint.size),
              })}
            </p>
          )}
          {result.sealMismatches.map((m) => (
            <p key={`${m.callId}/${m.field}`} className="error-note">
              <span className="mono">{m.deviceId}</span> —{' '}
              {t('integrity.seal_field', { field: m.field, call: m.call ?? '—', seal: m.seal ?? '—' })}{' '}
              <Link to={paths.call(m.callId)}>{t('approvals.open_call')}</Link>
            </p>
          ))}
        </div>
      )}
    </Card>
  );
}
