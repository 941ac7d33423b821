import { fleetStateColors, fleetStateLabels } from '@fleet/contract';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { Popup } from 'react-leaflet';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import type { FleetItem } from '../fleet-view';
import { fleetMapTexts as T } from '../texts';

/** The picked vehicle's popup, with the way to its detail screen and the follow switch. */
export function FleetPopup({
  item,
  onClose,
  following,
  onFollow,
}: {
  item: FleetItem;
  onClose(): void;
  following: boolean;
  onFollow(): void;
}) {
  if (item.lat === null || item.lng === null) return null;
  const { car } = item;
  return (
    <Popup position={[item.lat, item.lng]} offset={[0, -4]} eventHandlers={{ remove: onClose }}>
      <Stack gap={4} miw={250} data-testid="fleet-popup">
        <Text fw={700}>{car.car_number || car.car_id}</Text>
        <Text size="xs" c="dimmed">
          {car.car_id}・{car.company_name ?? ''}
        </Text>
        <Badge color={fleetStateColors[item.state]} variant="filled" size="sm">
          {fleetStateLabels[item.state]}
        </Badge>
        <Text size="xs">
          {T.speed(item.speed)}・{T.seen} {formatDateTime(item.seen)}
        </Text>
        {/* The address of the position the list was loaded at; a live move leaves it out until the next load. */}
        {car.address && car.state?.lat === item.lat && car.state?.lng === item.lng && (
          <Text size="xs" data-testid="fleet-popup-address">
            {car.address}
          </Text>
        )}
        {/* The link and the follow switch share a line: a taller popup would pan the map when it opens. */}
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={paths.car.detail(car.car_id, car.car_data_id ?? '')} size="sm">
            {T.detail}
          </Anchor>
          <Button
            size="compact-xs"
            variant={following ? 'filled' : 'light'}
            leftSection={<IconCurrentLocation size={12} />}
            onClick={onFollow}
            aria-pressed={following}
          >
            {following ? T.unfollow : T.follow}
          </Button>
        </Group>
      </Stack>
    </Popup>
  );
}
