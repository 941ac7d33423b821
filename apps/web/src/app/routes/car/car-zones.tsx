import { PageHeader } from '../../../components/page-header';
import { zoneTexts } from '../../../features/zones/texts';
import { ZoneLibrary } from '../../../features/zones/zone-library';

/** `/car/car_zones`: the company's zone library (circles and polygons drawn on the map). */
export function Component() {
  return (
    <>
      <PageHeader title={zoneTexts.title} description={zoneTexts.description} />
      <ZoneLibrary />
    </>
  );
}
