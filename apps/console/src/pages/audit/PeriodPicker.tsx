import { useState } from 'react';
import type { Period } from '../../api/reports-api';
import { useI18n } from '../../i18n/i18n';
import { fromLocalInput, presetPeriod, toLocalInput, type Preset } from './period';

export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const { t } = useI18n();
  const [preset, setPreset] = useState<Preset>('day');
  const [from, setFrom] = useState(toLocalInput(period.from));
  const [to, setTo] = useState(toLocalInput(period.to));
  const choose = (p: Preset) => {
    setPreset(p);
    if (p !== 'custom') {
      const next = presetPeriod(p);
      setFrom(toLocalInput(next.from));
      setTo(toLocalInput(next.to));
      onChange(next);
    }
  };
  const apply = () => {
    const f = fromLocalInput(from);
    const e = fromLocalInput(to);
    if (f && e) onChange({ from: f, to: e });
  };
  return (
    <div className="filters period" data-testid="period">
      {(['hour', 'day', 'week', 'custom'] as const).map((p) => (
        <button key={p} className={p === preset ? 'active' : ''} onClick={() => choose(p)} type="button">
          {t(`audit.preset.${p}`)}
        </button>
      ))}
      <label>
        {t('audit.from')}{' '}
        <input
          type="datetime-local"
          value={from}
          onChange={(e) => (setFrom(e.target.value), setPreset('custom'))}
        />
      </label>
      <label>
        {t('audit.to')}{' '}
        <input
          type="datetime-local"
          value={to}
          onChange={(e) => (setTo(e.target.value), setPreset('custom'))}
        />
      </label>
      {preset === 'custom' && (
        <button type="button" className="primary" onClick={apply}>
          {t('audit.apply')}
        </button>
      )}
    </div>
  );
}
