import { FleetMapScreen } from '../../../features/fleet-map/components/fleet-map-screen';

/** `/car/car_map` (ours, docs/console.md "Extras beyond docs/product.md §2"): the live fleet map. */
export function Component() {
  return <FleetMapScreen />;
}
