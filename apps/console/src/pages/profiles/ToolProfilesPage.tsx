import type { ToolProfile, ToolProfileProposal } from '@fleet/api-contract';
import { toolProfilesApi } from '../../api/tool-profiles-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';

/**
 * Tool profiles (DESIGN §4, §5): what each model's tools are, which reader proves a setter's effect, and the
 * pairings the platform saw in catalogs, which apply only once a person accepts them.
 */
export function ToolProfilesPage() {
  const { t } = useI18n();
  const profiles = useAsync(() => toolProfilesApi.list(), []);
  const proposals = useAsync(() => toolProfilesApi.proposals(), []);
  const act = (done: Promise<unknown>) =>
    void done.finally(() => {
      profiles.reload();
      proposals.reload();
    });
  return (
    <div data-page="tool-profiles" className="stack">
      <h1>{t('profiles.title')}</h1>
      <p className="muted">{t('profiles.intro')}</p>
      <h2>{t('profiles.proposals')}</h2>
      <ErrorNote error={proposals.error} />
      {!proposals.data ? (
        <Loading />
      ) : proposals.data.length === 0 ? (
        <p className="muted">{t('profiles.no_proposals')}</p>
      ) : (
        <ProposalList
          proposals={proposals.data}
          onAccept={(id) => act(toolProfilesApi.accept(id))}
          onReject={(id) => act(toolProfilesApi.reject(id))}
        />
      )}
      <h2>{t('profiles.profiles')}</h2>
      <ErrorNote error={profiles.error} />
      {!profiles.data ? (
        <Loading />
      ) : (
        <ProfileTable profiles={profiles.data} onDelete={(id) => act(toolProfilesApi.remove(id))} />
      )}
    </div>
  );
}

function ProposalList(props: {
  proposals: ToolProfileProposal[];
  onAccept: (id: string) => void;
  onReject: (id: string) => void;
}) {
  const { t } = useI18n();
  return (
    <ul className="stack" data-testid="proposal-list">
      {props.proposals.map((p) => (
        <li key={p.id} className="card" data-proposal={p.id}>
          <p>
            <strong>{p.model}</strong> <span className="mono">{p.tool}</span> ←{' '}
            <span className="mono">{p.readerTool}</span>
          </p>
          <p className="muted">{p.why}</p>
          <button onClick={() => props.onAccept(p.id)}>{t('profiles.accept')}</button>{' '}
          <button onClick={() => props.onReject(p.id)}>{t('profiles.reject')}</button>
        </li>
      ))}
    </ul>
  );
}

function ProfileTable({ profiles, onDelete }: { profiles: ToolProfile[]; onDelete: (id: string) => void }) {
  const { t } = useI18n();
  return (
    <table className="list" data-testid="profile-list">
      <thead>
        <tr>
          <th>{t('profiles.model')}</th>
          <th>{t('profiles.catalog')}</th>
          <th>{t('profiles.tool')}</th>
          <th>{t('profiles.kind')}</th>
          <th>{t('profiles.readback')}</th>
          <th>{t('profiles.done_when')}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {profiles.map((p) => (
          <tr key={p.id}>
            <td>{p.model}</td>
            <td className="mono">
              {p.catalogHash === '' ? t('profiles.every_catalog') : p.catalogHash.slice(0, 12)}
            </td>
            <td className="mono">{p.tool}</td>
            <td>{t(`profiles.kind.${p.kind}`)}</td>
            <td className="mono">
              {p.readback
                ? `${p.readback.tool} → ${p.readback.path || '·'} = ${p.readback.argument ?? JSON.stringify(p.readback.value)}`
                : ''}
            </td>
            <td>{t(`profiles.done.${p.doneWhen}`)}</td>
            <td>
              <button onClick={() => onDelete(p.id)}>{t('profiles.delete')}</button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
