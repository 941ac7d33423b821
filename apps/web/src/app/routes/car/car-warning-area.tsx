import { CarScreen } from '../../../features/car/car-header';
import { AreaEditor } from '../../../features/areas/area-editor';
import { areaTexts } from '../../../features/areas/texts';
import { useLiveFeed } from '../../../lib/live-feed';

/** `/car/car_warning_area/{car_id?}/{car_data_id?}`: the vehicle's available areas. */
export function Component() {
  useLiveFeed();
  return <CarScreen title={areaTexts.titles.available}>{(car) => <AreaEditor car={car} kind="available" />}</CarScreen>;
}
