import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '@fleet/api-contract';
import { apiKeysApi } from '../../api/api-keys-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { Ago } from '../../components/Time';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import { NewApiKeyForm } from './NewApiKeyForm';

/**
 * API keys (admin): who holds them, their role, and their reach: the whole fleet, or only the devices of some
 * groups (an agent's key, bounded so that a device's text cannot talk it into the rest of the fleet).
 */
export function ApiKeysPage() {
  const { t } = useI18n();
  const keys = useAsync(() => apiKeysApi.list(), []);
  const [created, setCreated] = useState<CreatedApiKey>();
  return (
    <div data-page="api-keys" className="stack">
      <h1>{t('keys.title')}</h1>
      <p className="muted">{t('keys.intro')}</p>
      {created && <CreatedKey created={created} />}
      <NewApiKeyForm
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
      <ErrorNote error={keys.error} />
      {!keys.data ? <Loading /> : <KeyTable keys={keys.data} />}
    </div>
  );
}

function KeyTable({ keys }: { keys: ApiKey[] }) {
  const { t } = useI18n();
  return (
    <table className="list" data-testid="api-key-list">
      <thead>
        <tr>
          <th>{t('keys.name')}</th>
          <th>{t('keys.prefix')}</th>
          <th>{t('keys.role')}</th>
          <th>{t('keys.reach')}</th>
          <th>{t('keys.last_used')}</th>
          <th>{t('keys.state')}</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k.id} data-key={k.id}>
            <td>{k.name}</td>
            <td className="mono">{k.prefix}</td>
            <td>{t(`role.${k.role}`)}</td>
            <td data-testid="key-reach">
              {k.groups === null
                ? t('keys.reach_fleet')
                : k.groups.length === 0
                  ? t('keys.reach_none')
                  : t('keys.reach_groups', { groups: k.groups.map((g) => g.name).join(', ') })}
            </td>
            <td>
              <Ago at={k.lastUsedAt} />
            </td>
            <td>{k.revokedAt ? t('keys.revoked') : t('keys.active')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreatedKey({ created }: { created: CreatedApiKey }) {
  const { t } = useI18n();
  return (
    <section className="card issued-token">
      <p className="note">{t('keys.created_once', { name: created.name })}</p>
      <code className="mono secret" data-testid="created-key">
        {created.key}
      </code>
    </section>
  );
}
