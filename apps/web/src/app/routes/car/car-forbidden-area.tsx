import { CarScreen } from '../../../features/car/car-header';
import { AreaEditor } from '../../../features/areas/area-editor';
import { areaTexts } from '../../../features/areas/texts';
import { useLiveFeed } from '../../../lib/live-feed';

/** `/car/car_forbidden_area/{car_id?}/{car_data_id?}`: the vehicle's forbidden areas. */
export function Component() {
  useLiveFeed();
  return <CarScreen title={areaTexts.titles.disable}>{(car) => <AreaEditor car={car} kind="disable" />}</CarScreen>;
}
