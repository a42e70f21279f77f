import { operatorsApi } from '../../api/operators-api';
import { roleAllows } from '../../auth/roles';
import { useMe } from '../../auth/session';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';

/**
 * An operator by id: "you" for the signed-in person; an admin sees the name (GET /operators/:id is admin's);
 * others see the id, which the audit report resolves to an email.
 */
export function PersonName({ id }: { id: string }) {
  const me = useMe();
  const { t } = useI18n();
  const admin = roleAllows(me.role, 'admin');
  const person = useAsync(
    () => (admin && id !== me.id ? operatorsApi.get(id) : Promise.resolve(undefined)),
    [id, admin, me.id],
  );
  if (id === me.id) return <>{t('common.you', { name: me.name })}</>;
  if (person.data) return <span title={person.data.email}>{person.data.name}</span>;
  return (
    <span className="mono" title={id}>
      {id.slice(0, 8)}
    </span>
  );
}
