import { SimpleGrid } from '@mantine/core';
import { CarTimeline } from '../../../features/alerts/car-timeline';
import { alertTexts } from '../../../features/alerts/texts';
import { CarScreen } from '../../../features/car/car-header';
import { CarZonesPanel } from '../../../features/zones/car-zones-panel';

/** `/car/car_timeline/{car_id?}/{car_data_id?}`: the vehicle's day of events and the zones it is judged against. */
export function Component() {
  return (
    <CarScreen title={alertTexts.timeline.title}>
      {(car) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <CarTimeline carDataId={car.car_data_id ?? ''} />
          <CarZonesPanel carId={car.car_id} />
        </SimpleGrid>
      )}
    </CarScreen>
  );
}
