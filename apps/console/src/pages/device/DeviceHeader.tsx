import type { ReactNode } from 'react';
import type { DeviceDetail } from '@fleet/api-contract';
import { Badge } from '../../components/Badge';
import { Facts } from '../../components/Facts';
import { Ago, DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import { DeviceText } from '../../components/DeviceText';

export function DeviceHeader({ device }: { device: DeviceDetail }) {
  const { t } = useI18n();
  const clientId: [ReactNode, ReactNode] = [
    t('device.client_id'),
    <span className="mono" data-testid="device-client-id" title={t('device.client_id_hint')}>
      {device.clientIdFingerprint}…
    </span>,
  ];
  return (
    <header className="page-head">
      <h1>
        <span className="mono">{device.id}</span>{' '}
        <Badge tone={device.online ? 'good' : 'neutral'}>
          <span data-testid="device-presence">
            {device.online ? t('device.online') : t('device.offline')}
          </span>
        </Badge>{' '}
        {device.status !== 'active' && <Badge tone="bad">{t(`device.status.${device.status}`)}</Badge>}
      </h1>
      <Facts
        items={[
          [
            t('device.board'),
            <DeviceText
              text={`${device.board ?? '—'}${device.boardName && device.boardName !== device.board ? ` (${device.boardName})` : ''}`}
            />,
          ],
          [
            t('device.firmware'),
            <span data-testid="device-firmware">
              <DeviceText text={device.firmwareVersion ?? '—'} />
            </span>,
          ],
          [t('device.dialect'), <span data-testid="device-dialect">{t(`dialect.${device.dialect}`)}</span>],
          [t('device.chip'), <DeviceText text={device.chipModel ?? '—'} />],
          // A ListenAI device has no Client-Id of its own: its link token identifies it.
          ...(device.dialect === 'xiaozhi' ? [clientId] : []),
          [t('device.last_seen'), <Ago at={device.lastSeenAt} />],
          [t('device.last_boot'), <DateTime at={device.lastBootAt} />],
          [
            t('device.catalog'),
            device.catalog
              ? t('device.catalog_version', {
                  version: device.catalog.version,
                  tools: device.catalog.toolCount,
                })
              : '—',
          ],
          [t('device.groups'), device.groups.map((g) => g.name).join(', ') || '—'],
          [t('device.tag'), device.tags.join(', ') || '—'],
        ]}
      />
    </header>
  );
}
