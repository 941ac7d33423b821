import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { errorMessages } from '@fleet/contract';
import { useState, type ReactNode } from 'react';
import { messageOf } from '../../lib/api-client';
import { usePhone } from '../../lib/use-phone';

/**
 * A button that asks before it acts (delete, restore, engine commands). `onConfirm` may resolve to
 * `false` to keep the dialog open, e.g. when it showed the problem under a field of `confirmInput`.
 * On a phone (<= 600 px) the dialog's buttons are full width, the action above キャンセル, for one thumb;
 * `fullScreenOnPhone` makes the dialog the whole screen there (the engine prohibit with its inputs).
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
  fullScreenOnPhone = false,
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
  fullScreenOnPhone?: boolean;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const phone = usePhone();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const action = (
    <Button
      color={button.color}
      loading={busy}
      disabled={confirmDisabled}
      size={phone ? 'md' : undefined}
      fullWidth={phone}
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
  );
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
      <Modal opened={opened} onClose={close} title={title} centered fullScreen={phone && fullScreenOnPhone}>
        <Stack>
          <Text size="sm">{message}</Text>
          {confirmInput}
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          {phone ? (
            <Stack gap="xs" mt="sm">
              {action}
              <Button variant="default" size="md" fullWidth onClick={close}>
                キャンセル
              </Button>
            </Stack>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                キャンセル
              </Button>
              {action}
            </Group>
          )}
        </Stack>
      </Modal>
    </>
  );
}
