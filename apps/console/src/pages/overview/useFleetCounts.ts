import { campaignsApi } from '../../api/campaigns-api';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { fleetCounts, type FleetCounts } from './fleet-counts';

/** Online/offline and the board/firmware breakdowns, re-read when presence changes. */
export function useFleetCounts() {
  const { t } = useI18n();
  const state = useAsync<FleetCounts>(async () => {
    const [online, offline] = await Promise.all([
      campaignsApi.preview({ online: true }),
      campaignsApi.preview({ online: false }),
    ]);
    return fleetCounts(online, offline, t('common.unknown'));
  }, [t]);
  useLiveReload(['presence', 'catalog'], () => true, state.reload, 2000);
  return state;
}
