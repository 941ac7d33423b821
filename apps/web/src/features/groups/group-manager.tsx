import {
  capabilities,
  errorMessages,
  GROUP_NAME_MAX,
  groupMessages,
  type Group as VehicleGroup,
} from '@fleet/contract';
import { Alert, Button, Group, Modal, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { CompanySelect } from '../../components/company-select';
import { ListTable, tableOf, type ListColumn } from '../../components/list-shell/list-table';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { actorOf, useSession } from '../../lib/session-store';
import {
  useAddGroup,
  useDeleteGroup,
  useGroupList,
  useGroupZones,
  useRenameGroup,
  useSetGroupZones,
  useZoneOptions,
} from './api';
import { groupTexts as t } from './texts';

type Dialog = { kind: 'rename' | 'zones' | 'delete'; group: VehicleGroup } | null;

/** The 拠点・部署 screen's body: add, search, the list with vehicle counts, rename, zones and delete. */
export function GroupManager() {
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  const mayEdit = caps.editCarsAndCustomers;
  const [company, setCompany] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState('');
  const q = useGroupList(company);
  const words = search.trim().toLowerCase();
  const rows = (q.data?.list ?? []).filter((g) => !words || g.name.toLowerCase().includes(words));
  const columns: ListColumn<VehicleGroup>[] = [
    { label: t.columns.name, render: (g) => <Text fw={600}>{g.name}</Text> },
    ...(caps.allCompanies ? [{ label: '加盟店', render: (g: VehicleGroup) => g.company_name ?? '' }] : []),
    { label: t.columns.cars, render: (g) => t.cars(g.car_count) },
    {
      label: t.columns.actions,
      render: (g) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'zones', group: g })}>
            {t.zones}
          </Button>
          {mayEdit && (
            <>
              <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'rename', group: g })}>
                {t.rename}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => setDialog({ kind: 'delete', group: g })}
              >
                {t.delete}
              </Button>
            </>
          )}
        </Group>
      ),
    },
  ];
  const close = (message = '') => {
    setDialog(null);
    setNotice(message);
  };
  return (
    <Paper p="md" radius="md" withBorder>
      <Stack gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          {caps.allCompanies && (
            <CompanySelect
              value={company}
              onChange={(v) => {
                setCompany(v);
                setNotice('');
              }}
            />
          )}
          {mayEdit && (!caps.allCompanies || company) && (
            <AddGroup companyId={company} onAdded={(name) => setNotice(t.added(name))} />
          )}
          <TextInput
            label={t.search}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            leftSection={<IconSearch size={14} />}
            w={220}
            ml="auto"
          />
        </Group>
        {caps.allCompanies && mayEdit && !company && (
          <Text size="xs" c="dimmed">
            {t.chooseCompany}
          </Text>
        )}
        {notice && (
          <Alert color="teal" role="status" withCloseButton onClose={() => setNotice('')} py={6}>
            {notice}
          </Alert>
        )}
        <ListTable
          columns={columns}
          rowKey={(g) => g.group_id}
          {...tableOf(q)}
          rows={rows}
          empty={words ? t.emptyFiltered : t.empty}
          minWidth={560}
        />
      </Stack>
      {dialog?.kind === 'rename' && <RenameDialog group={dialog.group} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDialog group={dialog.group} onClose={close} />}
      {dialog?.kind === 'zones' && <ZonesDialog group={dialog.group} mayEdit={mayEdit} onClose={close} />}
    </Paper>
  );
}

const fieldError = (error: unknown, field: string) =>
  error instanceof ApiClientError ? (error.errors[field] ?? error.errors[`info.${field}`]) : undefined;

function AddGroup({ companyId, onAdded }: { companyId: string | null; onAdded(name: string): void }) {
  const add = useAddGroup();
  const [name, setName] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(
          { name, ...(companyId ? { company_id: companyId } : {}) },
          {
            onSuccess: () => {
              onAdded(name.trim());
              setName('');
            },
          },
        );
      }}
    >
      <Group gap="xs" align="flex-start">
        <TextInput
          label={t.addLabel}
          placeholder={t.addPlaceholder}
          value={name}
          maxLength={GROUP_NAME_MAX}
          onChange={(e) => {
            setName(e.currentTarget.value);
            add.reset();
          }}
          error={
            add.isError &&
            (fieldError(add.error, 'name') ??
              fieldError(add.error, 'company_id') ??
              messageOf(add.error, groupMessages.saveFailed))
          }
          w={240}
        />
        <Button type="submit" leftSection={<IconPlus size={16} />} loading={add.isPending} mt={25}>
          {t.add}
        </Button>
      </Group>
    </form>
  );
}

function RenameDialog({ group, onClose }: { group: VehicleGroup; onClose(message?: string): void }) {
  const rename = useRenameGroup();
  const [name, setName] = useState(group.name);
  return (
    <Modal opened onClose={() => onClose()} title={t.renameTitle} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate({ group_id: group.group_id, name }, { onSuccess: () => onClose(t.renamed) });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t.columns.name}
            value={name}
            maxLength={GROUP_NAME_MAX}
            onChange={(e) => setName(e.currentTarget.value)}
            error={
              rename.isError && (fieldError(rename.error, 'name') ?? messageOf(rename.error, groupMessages.saveFailed))
            }
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose()}>
              {t.cancel}
            </Button>
            <Button type="submit" loading={rename.isPending}>
              {t.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ group, onClose }: { group: VehicleGroup; onClose(message?: string): void }) {
  const remove = useDeleteGroup();
  return (
    <Modal opened onClose={() => onClose()} title={t.deleteTitle} centered>
      <Stack gap="sm">
        <Text size="sm">{t.confirmDelete(group.name, group.car_count)}</Text>
        {remove.isError && (
          <Text size="sm" c="red" role="alert">
            {messageOf(remove.error, errorMessages.deleteFailed)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            {t.cancel}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => remove.mutate(group.group_id, { onSuccess: () => onClose(t.deleted(group.name)) })}
          >
            {t.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ZonesDialog({
  group,
  mayEdit,
  onClose,
}: {
  group: VehicleGroup;
  mayEdit: boolean;
  onClose(message?: string): void;
}) {
  const assigned = useGroupZones(group.group_id);
  const options = useZoneOptions(group.company_id);
  const save = useSetGroupZones();
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (assigned.data) setChosen(assigned.data.zones.map((z) => z.zone_id));
  }, [assigned.data]);
  return (
    <Modal opened onClose={() => onClose()} title={t.zonesTitle(group.name)} centered>
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          {t.zonesHelp}
        </Text>
        <MultiSelect
          label={t.zonesLabel}
          placeholder={t.zonesPlaceholder}
          data={options.data ?? []}
          value={chosen}
          onChange={setChosen}
          disabled={!mayEdit || assigned.isPending}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        {save.isError && (
          <Text size="sm" c="red" role="alert">
            {messageOf(save.error, errorMessages.updateFailed)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            {mayEdit ? t.cancel : '閉じる'}
          </Button>
          {mayEdit && (
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate({ group_id: group.group_id, zone_ids: chosen }, { onSuccess: () => onClose(t.zonesSaved) })
              }
            >
              {t.save}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
