import { Button, Checkbox, Group, Popover, Select, Stack, Switch, TextInput, UnstyledButton } from '@mantine/core';
import { IconColumns, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { listTexts } from './list-texts';
import { CompanySelect } from '../company-select';
import type { SavedListQuery } from './list-state';

const t = listTexts;

/** The search row of a list: column and keyword, company, column chooser, switches, deleted switch. */
export function ListSearchBar({
  query: q,
  update,
  searchColumns,
  flags = [],
  deletable = true,
  companyFilter = false,
  optionalColumns = [],
  extra,
}: {
  query: SavedListQuery;
  update(patch: Partial<SavedListQuery>): void;
  searchColumns: readonly { key: string; label: string }[];
  flags?: readonly { key: string; label: string }[];
  /** Shows the 削除済みも表示 switch. */
  deletable?: boolean;
  companyFilter?: boolean;
  /** The columns the user may show or hide, with whether each is shown now. */
  optionalColumns?: readonly { label: string; shown: boolean }[];
  /** The screen's own selects, after the company's. */
  extra?: ReactNode;
}) {
  const [text, setText] = useState(q.search_text);
  const [item, setItem] = useState(q.search_item);
  useEffect(() => setText(q.search_text), [q.search_text]);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        update({ search_text: text.trim(), search_item: item, currentPage: 0 });
      }}
    >
      <Group gap="sm" align="flex-end" wrap="wrap" mb="md">
        <Select
          label={t.searchItem}
          data={searchColumns.map((c, i) => ({ value: String(i), label: c.label }))}
          value={item}
          onChange={(v) => setItem(v ?? '0')}
          allowDeselect={false}
          w={160}
        />
        <TextInput
          label={t.searchText}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={260}
          rightSection={
            text ? (
              <UnstyledButton
                aria-label={t.clearText}
                onClick={() => {
                  setText('');
                  update({ search_text: '', currentPage: 0 });
                }}
              >
                <IconX size={14} />
              </UnstyledButton>
            ) : null
          }
        />
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t.search}
        </Button>
        {companyFilter && (
          <CompanySelect
            value={q.companyId}
            // The screen's own selects (a vehicle group) belong to a company: another company starts them afresh.
            onChange={(companyId) => update({ companyId, fields: {}, currentPage: 0 })}
          />
        )}
        {extra}
        <Group gap="md" ml="auto">
          {optionalColumns.length > 0 && (
            <Popover position="bottom-end" withinPortal shadow="md">
              <Popover.Target>
                <Button variant="default" size="xs" leftSection={<IconColumns size={14} />}>
                  {t.columns}
                </Button>
              </Popover.Target>
              <Popover.Dropdown>
                <Stack gap={8} role="group" aria-label={t.columns}>
                  {optionalColumns.map((c) => (
                    <Checkbox
                      key={c.label}
                      size="xs"
                      label={c.label}
                      checked={c.shown}
                      onChange={(e) => update({ columns: { ...q.columns, [c.label]: e.currentTarget.checked } })}
                    />
                  ))}
                </Stack>
              </Popover.Dropdown>
            </Popover>
          )}
          {flags.map((f) => (
            <Switch
              key={f.key}
              label={f.label}
              checked={!!q.flags[f.key]}
              onChange={(e) => update({ flags: { ...q.flags, [f.key]: e.currentTarget.checked }, currentPage: 0 })}
            />
          ))}
          {deletable && (
            <Switch
              label={t.showDeleted}
              checked={q.isShowDelete}
              onChange={(e) => update({ isShowDelete: e.currentTarget.checked, currentPage: 0 })}
            />
          )}
        </Group>
      </Group>
    </form>
  );
}
