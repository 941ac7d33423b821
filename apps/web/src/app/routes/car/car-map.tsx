import { FleetMapScreen } from '../../../features/fleet-map/components/fleet-map-screen';

/** `/car/car_map` (ours, issue #18): the live fleet map. */
export function Component() {
  return <FleetMapScreen />;
}
