import type { Call, EvidenceRow } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { JsonBlock } from '../../components/JsonBlock';
import { DateTime } from '../../components/Time';
import { EVIDENCE_STAGES } from '../../domain/constants';
import { useI18n } from '../../i18n/i18n';
import { isolatedText } from '../../text/device-text';
import { StageSummary } from './StageSummary';

/** The five evidence stages in order, each with what it recorded; a stage that did not happen says why. */
export function EvidenceTimeline({ call }: { call: Call }) {
  const { t } = useI18n();
  return (
    <Card
      title={t('evidence.title')}
      actions={
        call.evidence.complete ? (
          <span className="tone-good-text">{t('evidence.complete')}</span>
        ) : (
          <span className="muted">{t('evidence.so_far', { n: call.evidence.rows.length })}</span>
        )
      }
    >
      <ol className="evidence" data-testid="evidence">
        {EVIDENCE_STAGES.map((stage) => {
          const row = call.evidence.rows.find((r) => r.stage === stage);
          return (
            <li
              key={stage}
              className={`stage ${row ? (row.skipped ? 'skipped' : 'done') : 'waiting'}`}
              data-stage={stage}
            >
              <div className="stage-head">
                <strong>{t(`stage.${stage}`)}</strong>{' '}
                <span className="muted small">{t(`stage.${stage}.hint`)}</span>
                {row && (
                  <span className="muted small right">
                    <DateTime at={row.createdAt} /> · #{row.seq}
                  </span>
                )}
              </div>
              {row ? <StageBody row={row} /> : <p className="muted">{t('evidence.not_yet')}</p>}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

function StageBody({ row }: { row: EvidenceRow }) {
  const { t } = useI18n();
  return (
    <>
      {row.skipped ? (
        <p className="muted">{t('evidence.skipped', { reason: isolatedText(String(row.payload.reason)) })}</p>
      ) : row.valid ? (
        <StageSummary row={row} />
      ) : null}
      {!row.valid && (
        <p className="error-note">{t('evidence.invalid', { problems: row.problems.join('; ') })}</p>
      )}
      <details>
        <summary className="small">{t('evidence.raw_row')}</summary>
        <JsonBlock value={row.payload} />
        <p className="mono small muted">
          hash {row.hash.slice(0, 16)}… ← {row.prevHash.slice(0, 16)}…
        </p>
      </details>
    </>
  );
}
