import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/** Its texts live here, with the forms' code, not in the shell's texts every screen loads first. */
const t = {
  title: '未保存の変更',
  message: '保存していない変更があります。破棄して移動しますか？',
  leave: '破棄して移動する',
  stay: '編集を続ける',
};

/**
 * Nothing typed is lost by a click: while `dirty`, moving to another screen asks first (in the console's
 * own dialog) and closing or reloading the tab gets the browser's question. Every form passes its own
 * notion of "changed since loaded or saved"; a save that navigates sets `dirty` false first, or is
 * wrapped in `allowLeave`.
 */
export function useLeaveGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      !allowed.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      if (allowed.current) return;
      e.preventDefault();
      // Older Chromium and Safari show the question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const dialog = (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t.title}
      centered
      data-testid="leave-guard"
    >
      <Text size="sm">{t.message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {t.stay}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {t.leave}
        </Button>
      </Group>
    </Modal>
  );
  /** Runs a save that may navigate away (the saved record's screen) without asking. */
  const allowLeave = async <T,>(save: () => Promise<T>): Promise<T> => {
    allowed.current = true;
    try {
      return await save();
    } finally {
      allowed.current = false;
    }
  };
  return { dialog, allowLeave };
}
