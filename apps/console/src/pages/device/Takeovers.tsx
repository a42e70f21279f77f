import type { DeviceDetail } from '@fleet/api-contract';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import { foughtOver, takeoverAddresses, takeoverMarks } from './takeover-facts';

/**
 * DESIGN §3, one live connection per device: each time a newer connection of the device took over from the
 * older one, with where both came from. Often, or from an address the device never used, is two parties holding
 * one identity (a cloned Client-Id, an impostor on the same board, whose check-ins change nothing above).
 */
export function Takeovers({ device }: { device: DeviceDetail }) {
  const { t } = useI18n();
  const { takeovers } = device;
  return (
    <Card title={t('takeovers.title')}>
      <p data-testid="takeover-counts">
        {t('takeovers.counts', { hour: takeovers.lastHour, day: takeovers.lastDay })}{' '}
        {foughtOver(takeovers) && (
          <Badge tone="bad" title={t('takeovers.fought_hint')}>
            {t('takeovers.fought')}
          </Badge>
        )}
      </p>
      {takeovers.recent.length > 0 && (
        <>
          <p className="muted">
            {t('takeovers.addresses', { addresses: takeoverAddresses(takeovers.recent).join(', ') })}
          </p>
          <table className="compact" data-testid="takeovers">
            <thead>
              <tr>
                <th>{t('takeovers.when')}</th>
                <th>{t('takeovers.from')}</th>
                <th>{t('takeovers.by')}</th>
              </tr>
            </thead>
            <tbody>
              {takeovers.recent.map((k, i) => {
                const marks = takeoverMarks(k);
                return (
                  <tr key={`${k.at}-${i}`}>
                    <td>
                      <DateTime at={k.at} />
                    </td>
                    <td className="mono">{k.displacedAddress ?? '—'}</td>
                    <td>
                      <span className="mono">{k.byAddress ?? t('takeovers.never_online')}</span>{' '}
                      {marks.otherAddress && <Badge tone="doubt">{t('takeovers.other_address')}</Badge>}{' '}
                      {marks.otherClientId && (
                        <Badge tone="bad">
                          {t('takeovers.other_client_id', { fingerprint: k.byClientIdFingerprint ?? '' })}
                        </Badge>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </Card>
  );
}
