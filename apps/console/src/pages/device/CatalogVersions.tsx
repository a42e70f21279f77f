import { useState } from 'react';
import { devicesApi } from '../../api/devices-api';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { DateTime } from '../../components/Time';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { DeviceText } from '../../components/DeviceText';

/** The catalog versions discovery recorded, and what changed between any two of them. */
export function CatalogVersions({ deviceId }: { deviceId: string }) {
  const { t } = useI18n();
  const versions = useAsync(() => devicesApi.catalogs(deviceId), [deviceId]);
  useLiveReload(['catalog'], (e) => e.deviceId === deviceId, versions.reload);
  const [pick, setPick] = useState<{ from: number; to: number }>();
  const list = versions.data ?? [];
  const chosen = pick ?? (list.length >= 2 ? { from: list[1]!.version, to: list[0]!.version } : undefined);
  const diff = useAsync(
    () => (chosen ? devicesApi.catalogDiff(deviceId, chosen.from, chosen.to) : Promise.resolve(undefined)),
    [deviceId, chosen?.from, chosen?.to],
  );
  return (
    <Card title={t('device.catalog_versions')}>
      <table className="compact" data-testid="catalog-versions">
        <thead>
          <tr>
            <th>{t('catalog.version')}</th>
            <th>{t('catalog.tools')}</th>
            <th>{t('catalog.hash')}</th>
            <th>{t('catalog.discovered')}</th>
            <th>{t('catalog.confirmed')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((v) => (
            <tr key={v.versionId}>
              <td>
                v{v.version} {v.current && <b>({t('catalog.current')})</b>}
              </td>
              <td>{v.toolCount}</td>
              <td className="mono" title={v.hash}>
                {v.hash.slice(0, 12)}
              </td>
              <td>
                <DateTime at={v.discoveredAt} />
              </td>
              <td>
                <DateTime at={v.lastConfirmedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.length >= 2 && chosen && (
        <div className="diff">
          <label>
            {t('catalog.compare')}{' '}
            <select
              value={chosen.from}
              onChange={(e) => setPick({ ...chosen, from: Number(e.target.value) })}
            >
              {list.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </select>{' '}
            →{' '}
            <select value={chosen.to} onChange={(e) => setPick({ ...chosen, to: Number(e.target.value) })}>
              {list.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </select>
          </label>
          <ErrorNote error={diff.error} />
          {diff.data && (
            <ul className="plain-list">
              {diff.data.added.map((n) => (
                <li key={`+${n}`} className="added">
                  + {n}
                </li>
              ))}
              {diff.data.removed.map((n) => (
                <li key={`-${n}`} className="removed">
                  − <DeviceText text={n} />
                </li>
              ))}
              {diff.data.changed.map((c) => (
                <li key={`~${c.name}`} className="changed">
                  ~ <DeviceText text={c.name} />: {c.fields.join(', ')}
                </li>
              ))}
              {diff.data.added.length + diff.data.removed.length + diff.data.changed.length === 0 && (
                <li className="muted">{t('catalog.no_change')}</li>
              )}
            </ul>
          )}
        </div>
      )}
      {list.length < 2 && <p className="muted small">{t('catalog.single')}</p>}
    </Card>
  );
}
