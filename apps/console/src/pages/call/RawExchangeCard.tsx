import type { Call } from '../../api/types';
import { Card } from '../../components/Card';
import { JsonBlock } from '../../components/JsonBlock';
import { decodeBase64, prettyJson, rawExchange } from '../../evidence/raw-exchange';
import { payloadOf } from '../../evidence/rows';
import { useI18n } from '../../i18n/i18n';

/** The JSON-RPC exchange as it crossed the wire: the request, and the reply's exact bytes decoded. */
export function RawExchangeCard({ call }: { call: Call }) {
  const { t } = useI18n();
  const response = payloadOf(call, 'response');
  const exchange = rawExchange(call.tool, payloadOf(call, 'parameters'), response);
  const readbacks = payloadOf(call, 'effect')?.readback ?? [];
  return (
    <Card title={t('raw.title')}>
      <h3>{t('raw.request')}</h3>
      {exchange.request ? (
        <JsonBlock text={exchange.request} label={t('raw.request')} />
      ) : (
        <p className="muted">{t('raw.no_request')}</p>
      )}
      <h3>{t('raw.reply')}</h3>
      {exchange.reply ? (
        <>
          <JsonBlock text={exchange.reply.text} label={t('raw.reply')} />
          {!exchange.reply.json && <p className="note">{t('raw.not_json')}</p>}
          {exchange.repaired && <p className="note">{t('raw.repaired', { text: exchange.repaired })}</p>}
        </>
      ) : (
        <p className="muted">{response?.reason ?? t('raw.no_reply')}</p>
      )}
      {readbacks.length > 0 && (
        <details>
          <summary>{t('raw.readbacks', { n: readbacks.length })}</summary>
          {readbacks.map((r, i) => {
            const raw =
              typeof r === 'object' && r !== null && 'raw' in r && typeof r.raw === 'string'
                ? r.raw
                : undefined;
            return (
              <JsonBlock
                key={i}
                text={raw ? prettyJson(decodeBase64(raw)).text : JSON.stringify(r, null, 2)}
              />
            );
          })}
        </details>
      )}
    </Card>
  );
}
