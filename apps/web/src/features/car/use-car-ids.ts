import { sessionCarId } from '@fleet/contract';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { callApi } from '../../lib/api-client';
import { useSession } from '../../lib/session-store';

/**
 * `{car_id?}/{car_data_id?}` of the vehicle screens: the URL's ids, else the
 * vehicle last selected in this session; the selection is remembered here and
 * on the server (session_car_id).
 */
export function useCarIds() {
  const params = useParams();
  const storedCarId = useSession((s) => s.car_id);
  const storedDataId = useSession((s) => s.car_data_id);
  const car_id = params.car_id || storedCarId || '';
  const car_data_id = params.car_data_id || (params.car_id ? '' : storedDataId) || '';
  useEffect(() => {
    if (!car_id) return;
    useSession.getState().select({ car_id, ...(car_data_id ? { car_data_id } : {}) });
    callApi(sessionCarId, { car_id }).catch(() => undefined);
  }, [car_id, car_data_id]);
  return { car_id, car_data_id };
}
