import { prefetchFleetCars } from '../../../features/fleet-map/api/list-fleet-cars';

/**
 * `/car/car_map`'s loader, a module of its own so that it runs while the screen's chunk loads: the
 * vehicles are asked for in parallel with the session check and the map code, not after them.
 */
export function loader() {
  prefetchFleetCars();
  return null;
}
