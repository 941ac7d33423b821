import { carLabels, carUserLabels, type CarUserDetail } from '@fleet/contract';
import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';

/** The customer's vehicles on the customer detail, each linking to its vehicle detail. */
export function CarUserCars({ cars }: { cars: CarUserDetail['cars'] }) {
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed" fw={600}>
        {carUserLabels.cars}
      </Text>
      {cars.length === 0 ? (
        <Text size="sm" c="dimmed">
          登録されている車両はありません。
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
              <Table.Th>状態</Table.Th>
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
                  {c.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
