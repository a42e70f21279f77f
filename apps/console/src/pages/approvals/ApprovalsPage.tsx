import { useState } from 'react';
import { approvalsApi } from '../../api/approvals-api';
import type { ApprovalState } from '@fleet/api-contract';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { ApprovalCard } from './ApprovalCard';

const STATES: ApprovalState[] = ['pending', 'approved', 'rejected', 'expired'];

/** The approval gate's inbox: what waits for a second person, with everything needed to decide. */
export function ApprovalsPage() {
  const { t } = useI18n();
  const [state, setState] = useState<ApprovalState>('pending');
  const list = useAsync(() => approvalsApi.list(state, 100), [state]);
  useLiveReload(['approval'], () => true, list.reload, 500);
  return (
    <div data-page="approvals">
      <h1>{t('approvals.title')}</h1>
      <div className="tabs" role="tablist">
        {STATES.map((s) => (
          <button
            key={s}
            role="tab"
            aria-selected={s === state}
            className={s === state ? 'active' : ''}
            onClick={() => setState(s)}
          >
            {t(`approval.state.${s}`)}
          </button>
        ))}
      </div>
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <p className="muted">{t('approvals.none')}</p>
      ) : (
        <div className="stack" data-testid="approval-list">
          {list.data.items.map((a) => (
            <ApprovalCard key={a.id} approval={a} onDecided={list.reload} />
          ))}
        </div>
      )}
    </div>
  );
}
