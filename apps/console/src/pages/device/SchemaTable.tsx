import { DeviceText } from '../../components/DeviceText';
import { useI18n } from '../../i18n/i18n';
import { schemaRows } from './schema-rows';

/** A tool's input schema as a table: argument, type, what is allowed, default, required. */
export function SchemaTable({ schema }: { schema: unknown }) {
  const { t } = useI18n();
  const rows = schemaRows(schema);
  if (rows.length === 0) return <p className="muted small">{t('tool.no_arguments')}</p>;
  return (
    <table className="compact schema">
      <thead>
        <tr>
          <th>{t('schema.argument')}</th>
          <th>{t('schema.type')}</th>
          <th>{t('schema.allowed')}</th>
          <th>{t('schema.default')}</th>
          <th>{t('schema.description')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <td>
              <code>
                <DeviceText text={r.name} />
              </code>
              {r.required && <span title={t('schema.required')}> *</span>}
            </td>
            <td>{r.type}</td>
            <td>
              <DeviceText text={r.allowed.join(', ') || '—'} />
            </td>
            <td>
              <DeviceText text={r.defaultValue ?? '—'} />
            </td>
            <td className="small">
              <DeviceText text={r.description ?? ''} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
