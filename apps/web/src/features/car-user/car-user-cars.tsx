import { carLabels, carUserLabels, type CarUserDetail } from '@fleet/contract';
import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';
import { carUserTexts } from './texts';

/** The customer's vehicles on the customer detail, each linking to its vehicle detail. */
export function CarUserCars({ cars }: { cars: CarUserDetail['cars'] }) {
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed" fw={600}>
        {carUserLabels.cars}
      </Text>
      {cars.length === 0 ? (
        <Text size="sm" c="dimmed">
          {carUserTexts.cars.empty}
        </Text>
      ) : (
        <Table withTableBorder verticalSpacing={6} aria-label={carUserLabels.cars}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{carLabels.car_id}</Table.Th>
              <Table.Th>{carLabels.car_number}</Table.Th>
              <Table.Th>{carLabels.car_type}</Table.Th>
              <Table.Th>{carLabels.car_device_id}</Table.Th>
              <Table.Th>{carLabels.car_data_id}</Table.Th>
              <Table.Th>{shellTexts.detail.state}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cars.map((c) => (
              <Table.Tr key={c.car_id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.car.detail(c.car_id, c.car_data_id ?? '')} size="sm" fw={600}>
                    {c.car_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{c.car_number}</Table.Td>
                <Table.Td>{c.car_type}</Table.Td>
                <Table.Td>{c.car_device_id ?? '—'}</Table.Td>
                <Table.Td>{c.car_data_id ?? '—'}</Table.Td>
                <Table.Td>
                  {c.isDelete ? (
                    <Badge color="dark">{shellTexts.detail.deleted}</Badge>
                  ) : (
                    <Badge variant="light">{shellTexts.detail.active}</Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
