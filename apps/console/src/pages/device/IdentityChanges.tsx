import type { DeviceDetail, IdentityChange } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';

/**
 * DESIGN §3: a check-in that changes what a device is (board, chip, Client-Id, serial) is an event with its
 * evidence, and a claim from another identity waits here for an operator. Client-Ids only as fingerprints.
 */
export function IdentityChanges({ device }: { device: DeviceDetail }) {
  const { t } = useI18n();
  const shown = (change: IdentityChange, value: string | null) =>
    value === null ? '—' : change.field === 'client_id' ? `${value}…` : value;
  return (
    <Card title={t('identity.title')}>
      {device.identityChanges.length === 0 ? (
        <p className="muted">{t('identity.none')}</p>
      ) : (
        <table className="compact" data-testid="identity-changes">
          <thead>
            <tr>
              <th>{t('identity.when')}</th>
              <th>{t('identity.what')}</th>
              <th>{t('identity.how')}</th>
            </tr>
          </thead>
          <tbody>
            {device.identityChanges.map((c, i) => (
              <tr key={`${c.at}-${i}`}>
                <td>
                  <DateTime at={c.at} />
                </td>
                <td>
                  {t(`identity.field.${c.field}`)}:{' '}
                  <span className="mono">
                    {t('identity.change', { from: shown(c, c.previous), to: shown(c, c.current) })}
                  </span>
                </td>
                <td>{t(`identity.source.${c.source}`, { report: c.bootReportId ?? '—' })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {device.quarantine.length > 0 && (
        <>
          <h3>{t('identity.pending')}</h3>
          <ul data-testid="identity-claims">
            {device.quarantine.map((q) => (
              <li key={q.id}>
                <DateTime at={q.createdAt} />{' '}
                {t('identity.claim', {
                  fingerprint: q.claimedClientIdFingerprint,
                  serial: q.claimedSerial ?? '—',
                  address: q.remoteAddress ?? '—',
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
