import {
  capabilities,
  carDataSync,
  carStatuses,
  carStatusLabel,
  carStatusMessages,
  customerStates,
  errorMessages,
  paymentDelays,
  type CarDetail,
} from '@fleet/contract';
import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DeleteRestoreButton } from '../../../components/edit-shell/delete-restore-button';
import { MapHost } from '../../../components/map/map-host';
import { PositionMarker } from '../../../components/map/position-marker';
import { StatusBadge } from '../../../components/status-badge';
import { carKeys, useDeleteCar, useUpdateCarStatus } from '../../../features/car/api';
import { CarScreen } from '../../../features/car/car-header';
import { ConnectionBadge, DeviceStateBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { callApi, messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed } from '../../../lib/live-feed';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="nowrap"
      py={4}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" ta="right" fw={500}>
        {children === '' || children === null || children === undefined ? '—' : children}
      </Text>
    </Group>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The vehicle's status as named codes; a save is confirmed on screen, a failure says why. */
function StatusEditor({ car }: { car: CarDetail }) {
  const [value, setValue] = useState(String(car.car_status));
  const [saved, setSaved] = useState<string | null>(null);
  const update = useUpdateCarStatus();
  const codes = [...new Set([...Object.keys(carStatuses).map(Number), car.car_status])].sort((a, b) => a - b);
  const save = () => {
    setSaved(null);
    const car_status = Number(value);
    update.mutate(
      { car_id: car.car_id, car_status },
      { onSuccess: () => setSaved(carStatusMessages.saved(carStatusLabel(car_status))) },
    );
  };
  return (
    <Stack gap={4} mt="xs">
      <Group align="flex-end" gap="xs">
        <Select
          label="車両ステータスの変更"
          data={codes.map((c) => ({ value: String(c), label: carStatusLabel(c) }))}
          value={value}
          onChange={(v) => v !== null && setValue(v)}
          allowDeselect={false}
          w={200}
          size="xs"
        />
        <Button
          size="xs"
          variant="light"
          loading={update.isPending}
          disabled={Number(value) === car.car_status}
          onClick={save}
        >
          更新
        </Button>
      </Group>
      {saved && (
        <Text size="xs" c="teal.8" role="status">
          {saved}
        </Text>
      )}
      {update.isError && (
        <Text size="xs" c="red" role="alert">
          {messageOf(update.error, errorMessages.updateFailed)}
        </Text>
      )}
    </Stack>
  );
}

function DetailBody({ car }: { car: CarDetail }) {
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  const s = useLatestState(car.car_data_id, car.latest);
  const qc = useQueryClient();
  const sync = useMutation({
    mutationFn: () => callApi(carDataSync, { car_id: car.car_id, car_data_id: car.car_data_id ?? '' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: carKeys.detail(car.car_id) }),
  });
  const hasPosition = s?.lat !== null && s?.lat !== undefined && s?.lng !== null && s?.lng !== undefined;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Stack gap="md">
        <Section title="現在の状態">
          <Field label="走行状態">
            <RunningBadge state={s} />
          </Field>
          <Field label="エンジン始動">
            <EngineLineBadge state={s} />
          </Field>
          <Field label="通信">
            <ConnectionBadge state={s} />
          </Field>
          <Field label="端末状態">
            <DeviceStateBadge state={s} />
          </Field>
          <Field label="速度">{s?.speed !== null && s?.speed !== undefined ? `${Math.round(s.speed)} km/h` : ''}</Field>
          <Field label="バッテリー">
            {s?.battery_voltage != null
              ? `${s.battery_voltage.toFixed(1)} V${s.battery_percentage != null ? `（${Math.round(s.battery_percentage)}%）` : ''}`
              : ''}
          </Field>
          <Field label="位置">{hasPosition ? `${s!.lat!.toFixed(5)}, ${s!.lng!.toFixed(5)}` : ''}</Field>
          <Field label="最終受信">{formatDateTime(s?.last_seen_at)}</Field>
          {caps.editCarsAndCustomers && car.car_data_id && (
            <Group justify="flex-end" mt="sm">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconRefresh size={14} />}
                loading={sync.isPending}
                onClick={() => sync.mutate()}
              >
                過去データ同期
              </Button>
            </Group>
          )}
          {sync.isError && (
            <Text size="xs" c="red">
              {messageOf(sync.error, '過去データの同期に失敗しました。管理者に問い合わせてください。')}
            </Text>
          )}
          {sync.isSuccess && (
            <Text size="xs" c="teal">
              過去データから最新状態を同期しました。
            </Text>
          )}
        </Section>
        <Section title="車両情報">
          <Field label="車両ID">{car.car_id}</Field>
          <Field label="車両番号">{car.car_number}</Field>
          <Field label="車種">{car.car_type}</Field>
          <Field label="車台番号">{car.car_vin}</Field>
          <Field label="所属会社">{car.company_name}</Field>
          <Field label="車両ステータス">{carStatusLabel(car.car_status)}</Field>
          <Field label="利用可能範囲">
            {car.available_data
              ? `緯度 ${car.available_data.lat_min}〜${car.available_data.lat_max} / 経度 ${car.available_data.lng_min}〜${car.available_data.lng_max}`
              : '未設定'}
          </Field>
          <Field label="登録日時">{formatDateTime(car.created_at)}</Field>
          {caps.editCarsAndCustomers && !car.isDelete && <StatusEditor car={car} />}
        </Section>
      </Stack>
      <Stack gap="md">
        <MapHost height={340} center={hasPosition ? [s!.lat!, s!.lng!] : undefined} zoom={hasPosition ? 15 : 11}>
          {hasPosition && <PositionMarker lat={s!.lat!} lng={s!.lng!} label={car.car_number} />}
        </MapHost>
        {!hasPosition && (
          <Text size="xs" c="dimmed">
            位置情報はまだ受信していません。
          </Text>
        )}
        <Section title="顧客">
          {car.user ? (
            <>
              <Field label="氏名">
                <Link to={paths.car.userDetail(car.user.user_id)}>
                  {car.user.first_name} {car.user.name}
                </Link>
              </Field>
              <Field label="販売店">{car.user.merchant}</Field>
              <Field label="電話番号">{car.user.work_phone}</Field>
              <Field label="契約状態">
                <StatusBadge value={customerStates[car.user.state]} />
              </Field>
              <Field label="支払遅延">
                <StatusBadge value={paymentDelays[car.user.payment_log]} />
              </Field>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              顧客が登録されていません。
            </Text>
          )}
        </Section>
        <Section title="GPS端末">
          {car.device ? (
            <>
              <Field label="端末ID">
                {caps.devicesAndCompanies ? (
                  <Link to={paths.device.detail(car.device.car_device_id)}>{car.device.car_device_id}</Link>
                ) : (
                  car.device.car_device_id
                )}
              </Field>
              <Field label="IMEI">{car.device.car_data_id}</Field>
              <Field label="機種">{car.device.car_type}</Field>
              <Field label="IPアドレス">{car.device.ipaddr}</Field>
              <Field label="MACアドレス">{car.device.macaddr}</Field>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              端末が登録されていません。
            </Text>
          )}
        </Section>
      </Stack>
    </SimpleGrid>
  );
}

/** `/car/car_detail/{car_id?}/{car_data_id?}`: the vehicle, its customer and terminal, live state and position. */
export function Component() {
  useLiveFeed();
  const actor = actorOf(useSession())!;
  const del = useDeleteCar();
  return (
    <CarScreen
      title="車両詳細"
      actions={(car) =>
        capabilities(actor).editCarsAndCustomers && (
          <Group gap="xs">
            {car.isDelete && (
              <Badge color="dark" size="lg">
                削除済み
              </Badge>
            )}
            {!car.isDelete && (
              <Button component={Link} to={paths.car.edit(car.car_id)} leftSection={<IconEdit size={16} />}>
                編集
              </Button>
            )}
            <DeleteRestoreButton
              isDelete={car.isDelete}
              noun="車両"
              subject={`${car.car_number}（${car.car_id}）`}
              onToggle={() => del.mutateAsync({ car_id: car.car_id, isDelete: !car.isDelete })}
            />
          </Group>
        )
      }
    >
      {(car) => <DetailBody car={car} />}
    </CarScreen>
  );
}
