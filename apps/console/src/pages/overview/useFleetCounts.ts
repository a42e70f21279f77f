import { fleetApi } from '../../api/fleet-api';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { fleetCounts, type FleetCounts } from './fleet-counts';

/** Online/offline and the board/firmware/dialect breakdowns, re-read when presence changes. */
export function useFleetCounts() {
  const { t } = useI18n();
  const state = useAsync<FleetCounts>(
    async () => fleetCounts(await fleetApi.summary(3600, 300), t('common.unknown')),
    [t],
  );
  useLiveReload(['presence', 'catalog'], () => true, state.reload, 2000);
  return state;
}
