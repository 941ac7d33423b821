import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';

/** A button that asks before it acts (delete, restore, engine commands). */
export function ConfirmButton({ children, title, message, confirmLabel, onConfirm, ...button }: ButtonProps & { children: ReactNode; title: string; message: ReactNode; confirmLabel: string; onConfirm(): Promise<unknown> }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button {...button} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              キャンセル
            </Button>
            <Button
              color={button.color}
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  close();
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
