import { useState, type FormEvent } from 'react';
import { devicesApi } from '../../api/devices-api';
import type { DeviceCatalog, Tool } from '@fleet/api-contract';
import { navigate } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { DeviceText } from '../../components/DeviceText';
import { useI18n } from '../../i18n/i18n';
import { isolatedText } from '../../text/device-text';
import { argumentsFromFields, schemaRows } from './schema-rows';

/** Call a tool on this device; a user-only tool waits for another person's approval. */
export function CallForm({
  deviceId,
  catalog,
  online,
}: {
  deviceId: string;
  catalog: DeviceCatalog | undefined;
  online: boolean;
}) {
  const { t } = useI18n();
  const tools = catalog ? [...catalog.tools, ...catalog.platformTools] : [];
  const [toolName, setToolName] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const tool: Tool | undefined = tools.find((x) => x.name === toolName);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!tool) return;
    setBusy(true);
    setError(undefined);
    try {
      const created = await devicesApi.call(deviceId, {
        tool: tool.name,
        arguments: argumentsFromFields(tool.inputSchema, fields),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      navigate(paths.call(created.id));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Card title={t('call_form.title')}>
      <form onSubmit={(e) => void submit(e)} className="stack" data-testid="call-form">
        <label>
          {t('call_form.tool')}
          <select value={toolName} onChange={(e) => (setToolName(e.target.value), setFields({}))} required>
            <option value="">{t('call_form.pick_tool')}</option>
            {tools.map((x) => (
              <option key={x.name} value={x.name}>
                {isolatedText(x.name)}
                {x.gated ? ` — ${t('tool.needs_approval')}` : ''}
              </option>
            ))}
          </select>
        </label>
        {tool && (
          <p className="muted small">
            <DeviceText text={tool.description} />
          </p>
        )}
        {tool &&
          schemaRows(tool.inputSchema).map((row) => (
            <label key={row.name}>
              <DeviceText text={row.name} />{' '}
              <small className="muted">
                <DeviceText text={[row.type, ...row.allowed].join(' · ')} />
              </small>
              {row.type === 'boolean' ? (
                <select
                  name={row.name}
                  value={fields[row.name] ?? ''}
                  onChange={(e) => setFields({ ...fields, [row.name]: e.target.value })}
                >
                  <option value="" />
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  name={row.name}
                  type={row.type === 'integer' || row.type === 'number' ? 'number' : 'text'}
                  required={row.required}
                  value={fields[row.name] ?? ''}
                  onChange={(e) => setFields({ ...fields, [row.name]: e.target.value })}
                />
              )}
            </label>
          ))}
        <label>
          {t('call_form.reason')}
          <input
            name="reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('call_form.reason_hint')}
          />
        </label>
        {tool?.gated && <p className="note">{t('call_form.gated_note')}</p>}
        {!online && <p className="note">{t('call_form.offline_note')}</p>}
        <ErrorNote error={error} />
        <GatedButton action="call.create" type="submit" className="primary" disabled={!tool || busy}>
          {t('call_form.submit')}
        </GatedButton>
      </form>
    </Card>
  );
}
