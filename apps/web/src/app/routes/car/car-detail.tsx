import {
  capabilities,
  carStatuses,
  carStatusLabel,
  carStatusMessages,
  customerStates,
  errorMessages,
  paymentDelays,
  placeLabels,
  type CarDetail,
} from '@fleet/contract';
import { Badge, Box, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DetailActions, Field } from '../../../components/edit-shell/detail-shell';
import { FollowSize } from '../../../components/map/follow-size';
import { MapHost } from '../../../components/map/map-host';
import { PositionMarker } from '../../../components/map/position-marker';
import { StatusBadge } from '../../../components/status-badge';
import { useDeleteCar, useSyncCarData, useUpdateCarStatus } from '../../../features/car/api';
import { CarScreen } from '../../../features/car/car-header';
import { ConnectionBadge, DeviceStateBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { carTexts } from '../../../features/car/texts';
import { CarGroupsPanel } from '../../../features/groups/car-groups-panel';
import { FrequentPlaces } from '../../../features/places/frequent-places';
import { LatestAddress } from '../../../features/places/latest-address';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed } from '../../../lib/live-feed';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';
import classes from './car-detail.module.css';

const t = carTexts.detail;

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
          label={t.changeStatus}
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
          {t.update}
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
  const sync = useSyncCarData(car.car_id, car.car_data_id ?? '');
  const hasPosition = s?.lat !== null && s?.lat !== undefined && s?.lng !== null && s?.lng !== undefined;
  return (
    <div className={classes.body}>
      <div className={classes.column}>
        <Section title={t.now}>
          <Field inline label={t.running}>
            <RunningBadge state={s} />
          </Field>
          <Field inline label={t.engine}>
            <EngineLineBadge state={s} />
          </Field>
          <Field inline label={t.connection}>
            <ConnectionBadge state={s} />
          </Field>
          <Field inline label={t.device}>
            <DeviceStateBadge state={s} />
          </Field>
          <Field inline label={t.speed}>
            {s?.speed !== null && s?.speed !== undefined ? `${Math.round(s.speed)} km/h` : ''}
          </Field>
          <Field inline label={t.battery}>
            {s?.battery_voltage != null
              ? `${s.battery_voltage.toFixed(1)} V${s.battery_percentage != null ? `（${Math.round(s.battery_percentage)}%）` : ''}`
              : ''}
          </Field>
          <Field inline label={t.position}>
            {hasPosition ? `${s!.lat!.toFixed(5)}, ${s!.lng!.toFixed(5)}` : ''}
          </Field>
          <Field inline label={placeLabels.address}>
            {hasPosition && <LatestAddress carDataId={car.car_data_id} lat={s!.lat!} lng={s!.lng!} />}
          </Field>
          <Field inline label={t.lastSeen}>
            {formatDateTime(s?.last_seen_at)}
          </Field>
          {caps.editCarsAndCustomers && car.car_data_id && (
            <Group justify="flex-end" mt="sm">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconRefresh size={14} />}
                loading={sync.isPending}
                onClick={() => sync.mutate()}
              >
                {t.sync}
              </Button>
            </Group>
          )}
          {sync.isError && (
            <Text size="xs" c="red">
              {messageOf(sync.error, t.syncFailed)}
            </Text>
          )}
          {sync.isSuccess && (
            <Text size="xs" c="teal">
              {t.synced}
            </Text>
          )}
        </Section>
        <Section title={t.car}>
          <Field inline label={t.carId}>
            {car.car_id}
          </Field>
          <Field inline label={t.carNumber}>
            {car.car_number}
          </Field>
          <Field inline label={t.carType}>
            {car.car_type}
          </Field>
          <Field inline label={t.carVin}>
            {car.car_vin}
          </Field>
          <Field inline label={t.company}>
            {car.company_name}
          </Field>
          <Field inline label={t.carStatus}>
            {carStatusLabel(car.car_status)}
          </Field>
          <Field inline label={t.availableRange}>
            {car.available_data ? t.range(car.available_data) : t.unset}
          </Field>
          <Field inline label={t.createdAt}>
            {formatDateTime(car.created_at)}
          </Field>
          {caps.editCarsAndCustomers && !car.isDelete && <StatusEditor car={car} />}
        </Section>
        <CarGroupsPanel carId={car.car_id} companyId={car.company_id} readOnly={car.isDelete} />
      </div>
      <div className={classes.column}>
        <Box className={classes.mapFirst}>
          <MapHost height={340} center={hasPosition ? [s!.lat!, s!.lng!] : undefined} zoom={hasPosition ? 15 : 11}>
            <FollowSize />
            {hasPosition && <PositionMarker lat={s!.lat!} lng={s!.lng!} label={car.car_number} />}
          </MapHost>
          {!hasPosition && (
            <Text size="xs" c="dimmed" mt={4}>
              {t.noPosition}
            </Text>
          )}
        </Box>
        {car.car_data_id && <FrequentPlaces carDataId={car.car_data_id} />}
        <Section title={t.customer}>
          {car.user ? (
            <>
              <Field inline label={t.customerName}>
                <Link to={paths.car.userDetail(car.user.user_id)}>
                  {car.user.first_name} {car.user.name}
                </Link>
              </Field>
              <Field inline label={t.merchant}>
                {car.user.merchant}
              </Field>
              <Field inline label={t.phone}>
                {car.user.work_phone}
              </Field>
              <Field inline label={t.contract}>
                <StatusBadge value={customerStates[car.user.state]} />
              </Field>
              <Field inline label={t.payment}>
                <StatusBadge value={paymentDelays[car.user.payment_log]} />
              </Field>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t.noCustomer}
            </Text>
          )}
        </Section>
        <Section title={t.terminal}>
          {car.device ? (
            <>
              <Field inline label={t.terminalId}>
                {caps.devicesAndCompanies ? (
                  <Link to={paths.device.detail(car.device.car_device_id)}>{car.device.car_device_id}</Link>
                ) : (
                  car.device.car_device_id
                )}
              </Field>
              <Field inline label={t.imei}>
                {car.device.car_data_id}
              </Field>
              <Field inline label={t.model}>
                {car.device.car_type}
              </Field>
              <Field inline label={t.ip}>
                {car.device.ipaddr}
              </Field>
              <Field inline label={t.mac}>
                {car.device.macaddr}
              </Field>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t.noTerminal}
            </Text>
          )}
        </Section>
      </div>
    </div>
  );
}

/** `/car/car_detail/{car_id?}/{car_data_id?}`: the vehicle, its customer and terminal, live state and position. */
export function Component() {
  useLiveFeed();
  const actor = actorOf(useSession())!;
  const del = useDeleteCar();
  return (
    <CarScreen
      title={t.title}
      actions={(car) =>
        capabilities(actor).editCarsAndCustomers && (
          <DetailActions
            isDelete={car.isDelete}
            editTo={paths.car.edit(car.car_id)}
            remove={{
              noun: t.noun,
              subject: `${car.car_number}（${car.car_id}）`,
              onToggle: () => del.mutateAsync({ car_id: car.car_id, isDelete: !car.isDelete }),
            }}
          >
            {car.isDelete && (
              <Badge color="dark" size="lg">
                {t.deleted}
              </Badge>
            )}
          </DetailActions>
        )
      }
    >
      {(car) => <DetailBody car={car} />}
    </CarScreen>
  );
}
