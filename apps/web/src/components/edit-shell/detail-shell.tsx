import { errorMessages } from '@fleet/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  type MantineSpacing,
} from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { shellTexts } from '../../lib/texts';
import { DeleteRestoreButton } from './delete-restore-button';

const t = shellTexts.detail;
const isEmpty = (v: ReactNode) => v === '' || v === null || v === undefined;

/**
 * One label and its value, '—' when there is none. `inline` puts them on one ruled line (the vehicle
 * screen's side cards); by default the label stands above the value (the detail grid, the wizard summary).
 */
export function Field({ label, children, inline }: { label: string; children?: ReactNode; inline?: boolean }) {
  const value = isEmpty(children) ? '—' : children;
  if (inline)
    return (
      <Group
        justify="space-between"
        gap="xs"
        wrap="nowrap"
        py={4}
        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      >
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text size="sm" component="div" ta="right" fw={500}>
          {value}
        </Text>
      </Group>
    );
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  );
}

/** Fields in a two-column grid (one column on small screens). */
export function FieldGrid({
  children,
  verticalSpacing = 'sm',
}: {
  children: ReactNode;
  verticalSpacing?: MantineSpacing;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing={verticalSpacing}>
      {children}
    </SimpleGrid>
  );
}

/**
 * The states of a screen that loads one record: no id selected (not found), the §8 message on failure, `loading` while it loads, then the record.
 */
export function QueryState<T>({
  query,
  missing,
  fallback = errorMessages.fetchFailed,
  loading,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isError'>;
  /** No record is selected (an optional id neither in the URL nor in the session). */
  missing?: boolean;
  /** The message when the failure does not say why. */
  fallback?: string;
  loading: ReactNode;
  children(data: T): ReactNode;
}) {
  if (missing)
    return (
      <Alert color="red" role="alert">
        {errorMessages.notFound}
      </Alert>
    );
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, fallback)}
      </Alert>
    );
  if (query.data === undefined) return loading;
  return children(query.data);
}

export interface DetailRow {
  label: string;
  value: ReactNode;
}

/** What every stored record has; the detail grid ends with its state and time stamps. */
interface StoredRecord {
  isDelete: boolean;
  created_at: string;
  updated_at: string;
}

const recordRows = (r: StoredRecord): DetailRow[] => [
  {
    label: t.state,
    value: r.isDelete ? <Badge color="dark">{t.deleted}</Badge> : <Badge variant="light">{t.active}</Badge>,
  },
  { label: t.createdAt, value: formatDateTime(r.created_at) },
  { label: t.updatedAt, value: formatDateTime(r.updated_at) },
];

const skeleton = (
  <Paper p="lg" radius="md" withBorder maw={880}>
    <FieldGrid>
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} h={36} />
      ))}
    </FieldGrid>
  </Paper>
);

/**
 * One detail screen body: the record's fields (then its state, deleted or not, and its time stamps)
 * in a grid, a skeleton while loading, not found without an id, the §8 message on failure.
 */
export function DetailShell<T extends StoredRecord>({
  query,
  missing,
  rows,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isError'>;
  missing?: boolean;
  rows(record: T): DetailRow[];
  children?(record: T): ReactNode;
}) {
  return (
    <QueryState query={query} missing={missing} loading={skeleton}>
      {(record) => (
        <Paper p="lg" radius="md" withBorder maw={880}>
          <Stack gap="md">
            <FieldGrid>
              {[...rows(record), ...recordRows(record)].map((r) => (
                <Field key={r.label} label={r.label}>
                  {r.value}
                </Field>
              ))}
            </FieldGrid>
            {children?.(record)}
          </Stack>
        </Paper>
      )}
    </QueryState>
  );
}

/**
 * The header actions of a detail screen: the screen's own buttons, 編集 (while the record is not
 * deleted, where `editTo` is given) and 削除/復元 (where `remove` is given).
 */
export function DetailActions({
  isDelete,
  editTo,
  remove,
  children,
}: {
  isDelete: boolean;
  editTo?: string | false;
  remove?: Omit<ComponentProps<typeof DeleteRestoreButton>, 'isDelete'> | false;
  children?: ReactNode;
}) {
  return (
    <Group gap="xs">
      {children}
      {editTo && !isDelete && (
        <Button component={Link} to={editTo} leftSection={<IconEdit size={16} />}>
          {t.edit}
        </Button>
      )}
      {remove && <DeleteRestoreButton isDelete={isDelete} {...remove} />}
    </Group>
  );
}
