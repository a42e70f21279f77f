import { campaignsApi } from '../../api/campaigns-api';
import { useAsync } from '../../hooks/useAsync';
import { merge } from '../overview/fleet-counts';

/** The boards and firmware versions the fleet has, for the filter pickers (from two previews). */
export function useFleetFacets() {
  return useAsync(async () => {
    const [online, offline] = await Promise.all([
      campaignsApi.preview({ online: true }),
      campaignsApi.preview({ online: false }),
    ]);
    const known = <T>(pairs: [T | null, number][]) => pairs.filter((p): p is [T, number] => p[0] !== null);
    return {
      boards: merge(known([...online.byBoard, ...offline.byBoard].map((b) => [b.board, b.devices]))),
      firmware: merge(
        known([...online.byFirmware, ...offline.byFirmware].map((f) => [f.firmware, f.devices])),
      ),
    };
  }, []);
}
