import { placeLabels } from '@fleet/contract';
import { Text } from '@mantine/core';
import { useLatestAddress } from './api';

/** The address of the vehicle's latest position, 住所未取得 until the server has looked it up. */
export function LatestAddress({
  carDataId,
  lat,
  lng,
}: {
  carDataId: string | null;
  lat: number | null;
  lng: number | null;
}) {
  const address = useLatestAddress(carDataId, lat, lng);
  if (lat === null || lng === null) return null;
  return address.data ? (
    <Text size="sm" data-testid="latest-address">
      {address.data}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      {placeLabels.noAddress}
    </Text>
  );
}
