import { useState, type FormEvent } from 'react';
import { ROLES, type CreatedApiKey, type Role } from '@fleet/api-contract';
import { apiKeysApi } from '../../api/api-keys-api';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';

/** A new key for a person: its name, its role (at most the person's), and the device groups it is bounded to. */
export function NewApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { t } = useI18n();
  const people = useAsync(() => apiKeysApi.operators(), []);
  const groups = useAsync(() => apiKeysApi.groups(), []);
  const [operatorId, setOperatorId] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const toggle = (id: string) =>
    setChosen((now) => (now.includes(id) ? now.filter((g) => g !== id) : [...now, id]));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await apiKeysApi.create({
        operatorId,
        name: name.trim(),
        role,
        ...(chosen.length > 0 ? { groups: chosen } : {}),
      });
      setName('');
      setChosen([]);
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card stack" data-testid="new-api-key" onSubmit={(e) => void submit(e)}>
      <h2>{t('keys.new')}</h2>
      <label>
        {t('keys.owner')}
        <select required value={operatorId} onChange={(e) => setOperatorId(e.target.value)}>
          <option value="">—</option>
          {(people.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({t(`role.${p.role}`)})
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('keys.name')}
        <input name="name" required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('keys.role')}
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`role.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <fieldset data-testid="key-groups">
        <legend>{t('keys.groups')}</legend>
        <small className="muted">{t('keys.groups_hint')}</small>
        {(groups.data ?? []).map((g) => (
          <label key={g.id} className="checkbox">
            <input type="checkbox" checked={chosen.includes(g.id)} onChange={() => toggle(g.id)} /> {g.name}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={error ?? people.error ?? groups.error} />
      <GatedButton
        action="key.create"
        type="submit"
        className="primary"
        disabled={busy || !operatorId || !name.trim()}
      >
        {t('keys.create')}
      </GatedButton>
    </form>
  );
}
