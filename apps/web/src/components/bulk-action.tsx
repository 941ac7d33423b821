import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { messageOf } from '../lib/api-client';

/**
 * One bulk action of a list (the vehicle list's 拠点・部署に追加, ゾーンを割り当て, エリアテンプレートを適用): a
 * button that opens a dialog with the action's choice, applies it to the rows picked and closes; a refusal
 * stays in the dialog with the server's Japanese message.
 */
export function BulkAction({
  label,
  title,
  count,
  children,
  ready,
  pending,
  error,
  failed,
  onApply,
}: {
  label: string;
  title: string;
  /** How many rows are picked; the button is off without any. */
  count: number;
  children: ReactNode;
  /** Whether the choice is complete. */
  ready: boolean;
  pending: boolean;
  error: unknown;
  /** The message of a failure the server did not explain. */
  failed: string;
  /** Applies the choice; resolves when done (the dialog then closes). */
  onApply(): Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="light" disabled={count === 0} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Stack gap="sm">
          <Text size="sm">選択した車両：{count}台</Text>
          {children}
          {!!error && (
            <Text size="sm" c="red" role="alert">
              {messageOf(error, failed)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              キャンセル
            </Button>
            <Button
              disabled={!ready}
              loading={pending}
              onClick={() =>
                onApply().then(
                  () => setOpen(false),
                  () => undefined,
                )
              }
            >
              適用
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
