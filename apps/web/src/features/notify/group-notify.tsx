import {
  GroupNotifyForm,
  groupNotifyItemList,
  groupNotifyMessages,
  groupNotifyUpdate,
  type GroupNotifyCandidate,
} from '@fleet/contract';
import { Alert, Group, MultiSelect, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { FormShell } from '../../components/edit-shell/form-shell';
import { callApi, messageOf } from '../../lib/api-client';
import { groupNotifyQuery, notifyGroupsQuery, notifyKeys } from './api';
import { ItemCard } from './notify-form';
import { groupNotifyTexts as T } from './texts';

function Recipients({ candidates }: { candidates: readonly GroupNotifyCandidate[] }) {
  const { control, formState } = useFormContext();
  // The list's own message (none chosen), else the first refused entry's (`account_ids.<n>`).
  const errors = formState.errors.account_ids as unknown as Record<string, unknown> | undefined;
  const messageIn = (e: unknown) => (e && typeof e === 'object' ? (e as { message?: string }).message : undefined);
  const error =
    (typeof errors?.message === 'string' ? errors.message : undefined) ??
    Object.values(errors ?? {})
      .map(messageIn)
      .find(Boolean);
  return (
    <Controller
      name="account_ids"
      control={control}
      render={({ field }) => (
        <MultiSelect
          label={T.recipients}
          description={T.recipientsHint}
          data={candidates.map((c) => ({ value: c.account_id, label: `${c.name}（${c.email}）` }))}
          value={(field.value as string[] | undefined) ?? []}
          onChange={field.onChange}
          searchable
          clearable
          error={error}
        />
      )}
    />
  );
}

/** One group's settings: the items (the eight, the TCP ones, the zone crossings) and the accounts told. */
function GroupForm({ groupId }: { groupId: string }) {
  const qc = useQueryClient();
  const q = useQuery(groupNotifyQuery(groupId));
  const [saved, setSaved] = useState(false);
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, groupNotifyMessages.fetchFailed)}
      </Alert>
    );
  if (!q.data) return <Skeleton h={480} />;
  return (
    <>
      {saved && (
        <Alert color="green" role="status">
          {groupNotifyMessages.updated}
        </Alert>
      )}
      <FormShell
        schema={GroupNotifyForm}
        defaultValues={q.data.notify}
        failureMessage={groupNotifyMessages.updateFailed}
        submitLabel={T.save}
        onSubmit={async (info) => {
          setSaved(false);
          await callApi(groupNotifyUpdate, { group_id: groupId, info });
          await qc.invalidateQueries({ queryKey: notifyKeys.group(groupId) });
          setSaved(true);
        }}
      >
        <Recipients candidates={q.data.candidates} />
        <Text fw={700} size="sm" mt="xs">
          {T.items}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {groupNotifyItemList.map((item) => (
            <ItemCard key={item.key} item={item} />
          ))}
        </SimpleGrid>
      </FormShell>
    </>
  );
}

/** `/notify`, 拠点・部署の通知: a group selector and the selected group's settings (managers and administrators). */
export function GroupNotifySettings() {
  const groups = useQuery(notifyGroupsQuery());
  const [groupId, setGroupId] = useState<string | null>(null);
  const list = groups.data?.list ?? [];
  // The company is named only when the list holds several (the super admin's).
  const companies = new Set(list.map((g) => g.company_id)).size;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {T.description}
      </Text>
      {groups.isError && (
        <Alert color="red" role="alert">
          {messageOf(groups.error, groupNotifyMessages.fetchFailed)}
        </Alert>
      )}
      {groups.data && list.length === 0 ? (
        <Alert color="gray">{T.noGroups}</Alert>
      ) : (
        <Group>
          <Select
            label={T.group}
            placeholder={T.groupPlaceholder}
            data={list.map((g) => ({
              value: g.group_id,
              label: T.groupLabel(g.name, companies > 1 ? g.company_name : null),
            }))}
            value={groupId}
            onChange={setGroupId}
            searchable
            w={360}
            maw="100%"
          />
        </Group>
      )}
      {groupId && <GroupForm key={groupId} groupId={groupId} />}
    </Stack>
  );
}
