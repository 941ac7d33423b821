import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { errorMessages } from '@fleet/contract';
import { useState, type ReactNode } from 'react';
import { messageOf } from '../../lib/api-client';

/**
 * A button that asks before it acts (delete, restore, engine commands). `onConfirm` may resolve to
 * `false` to keep the dialog open, e.g. when it showed the problem under a field of `confirmInput`.
 */
export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  onConfirm,
  failureMessage,
  confirmInput,
  confirmDisabled,
  ...button
}: ButtonProps & {
  children: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm(): Promise<unknown>;
  failureMessage?: string;
  confirmInput?: ReactNode;
  confirmDisabled?: boolean;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button
        {...button}
        onClick={() => {
          setError(null);
          open();
        }}
      >
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          {confirmInput}
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              キャンセル
            </Button>
            <Button
              color={button.color}
              loading={busy}
              disabled={confirmDisabled}
              onClick={async () => {
                setBusy(true);
                setError(null);
                try {
                  if ((await onConfirm()) !== false) close();
                } catch (e) {
                  setError(messageOf(e, failureMessage ?? errorMessages.generic));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
