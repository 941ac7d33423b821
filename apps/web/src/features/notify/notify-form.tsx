import {
  accountNotify,
  accountNotifyUpdate,
  errorMessages,
  notifyChannelLabels,
  notifyChannels,
  notifyHistoryLabels,
  notifyItemList,
  notifyMessages,
  NotifySettingsForm,
} from '@fleet/contract';
import {
  Alert,
  Card,
  Checkbox,
  Group,
  Input,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { callApi, messageOf } from '../../lib/api-client';
import { notifyKeys } from './api';
import { notifyTexts } from './texts';

const T = notifyTexts.settings;

/** An item of a settings form (an account's or a group's): its switch, channels and param. */
export function ItemCard({ item }: { item: Omit<(typeof notifyItemList)[number], 'key'> & { key: string } }) {
  // The account's and the group's forms share the item fields' shape: `<item>.enable`, `<item>.param`, `channels.<item>.<channel>`.
  const { control, watch, formState } = useFormContext();
  const enabled = !!watch(`${item.key}.enable`);
  const err = (formState.errors as Record<string, { param?: { message?: string } }>)[item.key]?.param?.message;
  const channelErr = (formState.errors.channels as Record<string, { mail?: { message?: string } }> | undefined)?.[
    item.key
  ]?.mail?.message;
  return (
    <Card withBorder radius="md" padding="md" bg={enabled ? 'brand.0' : undefined}>
      <Stack gap="xs">
        <Controller
          name={`${item.key}.enable`}
          control={control}
          render={({ field }) => (
            <Switch
              label={
                <Text fw={700} size="sm">
                  {item.label}
                </Text>
              }
              checked={!!field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
        <Text size="xs" c="dimmed">
          {item.description}
        </Text>
        <Input.Wrapper label={notifyHistoryLabels.channel} size="xs" error={channelErr}>
          <Group gap="md" mt={4}>
            {notifyChannels.map((ch) => (
              <Controller
                key={ch}
                name={`channels.${item.key}.${ch}`}
                control={control}
                render={({ field }) => (
                  <Checkbox
                    label={notifyChannelLabels[ch]}
                    aria-label={T.channelOf(item.label, notifyChannelLabels[ch])}
                    checked={!!field.value}
                    onChange={(e) => field.onChange(e.currentTarget.checked)}
                    disabled={!enabled}
                  />
                )}
              />
            ))}
          </Group>
        </Input.Wrapper>
        {item.param && (
          <Controller
            name={`${item.key}.param`}
            control={control}
            render={({ field }) => (
              <NumberInput
                label={T.param(item.param!.label, item.param!.unit)}
                description={item.param!.description}
                min={item.param!.min}
                max={item.param!.max}
                step={item.param!.step}
                decimalScale={item.param!.integer ? 0 : 1}
                rightSection={
                  <Text size="xs" c="dimmed">
                    {item.param!.unit}
                  </Text>
                }
                value={(field.value as number | null) ?? ''}
                onChange={(v) => field.onChange(v === '' ? null : v)}
                disabled={!enabled}
                error={err}
                size="sm"
              />
            )}
          />
        )}
      </Stack>
    </Card>
  );
}

/** The signed-in user's own notification settings (docs/product.md §3): mail address and the eight items. */
export function NotifyForm({ accountId }: { accountId: string }) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: notifyKeys.settings(accountId),
    queryFn: ({ signal }) => callApi(accountNotify, { account_id: accountId }, { signal }),
  });
  const [saved, setSaved] = useState(false);
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, notifyMessages.fetchFailed)}
      </Alert>
    );
  if (!q.data) return <Skeleton h={480} />;
  return (
    <>
      {saved && (
        <Alert color="green" mb="md" role="status">
          {notifyMessages.updated}
        </Alert>
      )}
      <FormShell
        schema={NotifySettingsForm}
        defaultValues={q.data.notify}
        failureMessage={notifyMessages.updateFailed ?? errorMessages.updateFailed}
        submitLabel={T.save}
        onSubmit={async (info) => {
          setSaved(false);
          await callApi(accountNotifyUpdate, { account_id: accountId, info });
          await qc.invalidateQueries({ queryKey: notifyKeys.settings(accountId) });
          setSaved(true);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="email" label={T.email} type="email" description={T.emailHint} />
          <TextField name="messageId" label={T.messageId} description={T.messageIdHint} />
        </SimpleGrid>
        <Group gap={6} mt="xs">
          <Text fw={700} size="sm">
            {T.items}
          </Text>
          <Text size="xs" c="dimmed">
            {T.itemsHint}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {notifyItemList.map((item) => (
            <ItemCard key={item.key} item={item} />
          ))}
        </SimpleGrid>
      </FormShell>
    </>
  );
}
