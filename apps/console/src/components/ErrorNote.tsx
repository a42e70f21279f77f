import { ApiError } from '../api/http';
import { useI18n } from '../i18n/i18n';

/** What went wrong, as the API said it (its messages name the field or rule at fault). */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  const issues = error instanceof ApiError ? error.issues : [];
  return (
    <div className="error-note" role="alert">
      <strong>
        {error instanceof ApiError && error.status === 403 ? t('error.refused') : t('error.title')}
      </strong>{' '}
      {message}
      {issues.length > 0 && (
        <ul>
          {issues.map((i) => (
            <li key={i.field}>
              <code>{i.field}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
