import { errorMessages } from '@fleet/contract';
import { Button, Card, Group, MultiSelect, Radio, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { useAccountGroups, useGroupList, useSetAccountGroups } from './api';
import { groupTexts } from './texts';

const t = groupTexts.account;

/** An account's limit to groups on its edit screen: the whole company, or only the groups chosen. */
export function AccountGroupsPanel({ accountId, companyId }: { accountId: string; companyId: string }) {
  const current = useAccountGroups(accountId);
  const groups = useGroupList(companyId);
  const save = useSetAccountGroups();
  const [limited, setLimited] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!current.data) return;
    setLimited(current.data.group_ids !== null);
    setChosen(current.data.group_ids ?? []);
  }, [current.data]);
  const changed = () => setSaved(false);
  return (
    <Card withBorder radius="md" padding="md" mt="md">
      <Title order={2} size="h5" mb="xs">
        {t.title}
      </Title>
      <Stack gap="xs">
        <Radio.Group
          value={limited ? 'limited' : 'whole'}
          onChange={(v) => {
            setLimited(v === 'limited');
            changed();
          }}
        >
          <Group gap="lg">
            <Radio value="whole" label={t.whole} />
            <Radio value="limited" label={t.limited} />
          </Group>
        </Radio.Group>
        <Text size="xs" c="dimmed">
          {t.help}
        </Text>
        {limited && (
          <>
            <MultiSelect
              label={t.label}
              placeholder={t.placeholder}
              data={(groups.data?.list ?? []).map((g) => ({ value: g.group_id, label: g.name }))}
              value={chosen}
              onChange={(v) => {
                setChosen(v);
                changed();
              }}
              searchable
              clearable
              maw={480}
            />
            {groups.data?.list.length === 0 && (
              <Text size="xs" c="dimmed">
                {t.noGroups}
              </Text>
            )}
            {chosen.length === 0 && (
              <Text size="xs" c="orange.8">
                {t.noneChosen}
              </Text>
            )}
          </>
        )}
        <Group>
          <Button
            size="xs"
            loading={save.isPending}
            disabled={!current.data}
            onClick={() =>
              save.mutate(
                { account_id: accountId, group_ids: limited ? chosen : null },
                { onSuccess: () => setSaved(true) },
              )
            }
          >
            {t.save}
          </Button>
          {saved && (
            <Text size="xs" c="teal.8" role="status">
              {t.saved}
            </Text>
          )}
        </Group>
        {save.isError && (
          <Text size="xs" c="red" role="alert">
            {messageOf(save.error, errorMessages.updateFailed)}
          </Text>
        )}
        {current.isError && (
          <Text size="xs" c="red" role="alert">
            {messageOf(current.error, errorMessages.fetchFailed)}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
