import { approvalsApi } from '../../api/approvals-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { ApprovalCard } from './ApprovalCard';

/**
 * One approval, on its own page: where an outside agent's client sends its user (MCP URL-mode elicitation) to
 * find someone else to decide. The same card as the inbox, so the same rules: nobody decides their own request.
 */
export function ApprovalPage({ id }: { id: string }) {
  const { t } = useI18n();
  const approval = useAsync(() => approvalsApi.get(id), [id]);
  useLiveReload(['approval'], () => true, approval.reload, 500);
  return (
    <div data-page="approval">
      <h1>{t('approvals.title')}</h1>
      <p>
        <Link to={paths.approvals()}>{t('approvals.all')}</Link>
      </p>
      <ErrorNote error={approval.error} />
      {approval.data ? (
        <ApprovalCard approval={approval.data} onDecided={approval.reload} />
      ) : approval.error ? null : (
        <Loading />
      )}
    </div>
  );
}
