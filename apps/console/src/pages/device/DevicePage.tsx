import { devicesApi } from '../../api/devices-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { DeviceAnnouncements } from '../announce/DeviceAnnouncements';
import { CallForm } from './CallForm';
import { CallTimeline } from './CallTimeline';
import { CatalogVersions } from './CatalogVersions';
import { DeviceHeader } from './DeviceHeader';
import { IdentityChanges } from './IdentityChanges';
import { LastStatus } from './LastStatus';
import { LinkTokens } from './LinkTokens';
import { PresenceHistory } from './PresenceHistory';
import { Takeovers } from './Takeovers';
import { ToolCatalog } from './ToolCatalog';

export function DevicePage({ id }: { id: string }) {
  const { t } = useI18n();
  const device = useAsync(() => devicesApi.get(id), [id]);
  const catalog = useAsync(() => devicesApi.tools(id), [id]);
  useLiveReload(['presence', 'catalog'], (e) => e.deviceId === id, device.reload);
  useLiveReload(['catalog'], (e) => e.deviceId === id, catalog.reload);
  // A finished read of the status refreshes the last status shown.
  useLiveReload(['call'], (e) => e.deviceId === id && e.verdict !== undefined, device.reload, 1500);
  if (device.error) return <ErrorNote error={device.error} />;
  if (!device.data) return <Loading />;
  return (
    <div data-page="device">
      <DeviceHeader device={device.data} />
      <div className="grid three">
        <CallForm deviceId={id} catalog={catalog.data} online={device.data.online} />
        <LastStatus device={device.data} />
        <CallTimeline deviceId={id} />
      </div>
      {device.data.dialect === 'xiaozhi' && <DeviceAnnouncements deviceId={id} />}
      <ErrorNote error={catalog.error} />
      {catalog.data && (
        <ToolCatalog catalog={catalog.data} dialect={device.data.dialect} onChange={catalog.reload} />
      )}
      {device.data.dialect === 'listenai' && <LinkTokens device={device.data} onChange={device.reload} />}
      <div className="grid two">
        <PresenceHistory deviceId={id} />
        <CatalogVersions deviceId={id} />
      </div>
      <IdentityChanges device={device.data} />
      <Takeovers device={device.data} />
      <p className="muted">{t('device.catalog_note')}</p>
    </div>
  );
}
