import { ActionIcon, Button, Group, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconListSearch, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useFormContext, type FieldValues, type Path } from 'react-hook-form';
import { PickerModal, type PickerSource } from './picker-modal';

interface RecordPickerFieldProps<Row> {
  name: string;
  label: string;
  /** Title of the search modal, e.g. '顧客の選択'. */
  title: string;
  required?: boolean;
  disabled?: boolean;
  description?: string;
  placeholder?: string;
  /** The record the form starts with (edit screens): shown, and offered again in the modal. */
  current?: Row | null;
  source: PickerSource<Row>;
  /** How a chosen record reads in the field. */
  describe(row: Row): string;
  /** Called with the picked row, e.g. to copy its fields into the form. */
  onPicked?(row: Row | null): void;
}

/** A form field whose value is the id of a record chosen from a server-side search (docs/product.md §3 pickers). */
export function RecordPickerField<Row>(p: RecordPickerFieldProps<Row>) {
  const { control } = useFormContext();
  const [opened, modal] = useDisclosure(false);
  const [picked, setPicked] = useState<Row | null>(p.current ?? null);
  return (
    <Controller
      name={p.name as Path<FieldValues>}
      control={control}
      render={({ field, fieldState }) => {
        const shown = field.value
          ? picked && p.source.rowKey(picked) === field.value
            ? p.describe(picked)
            : String(field.value)
          : '';
        const choose = (row: Row | null) => {
          setPicked(row);
          field.onChange(row ? p.source.rowKey(row) : null);
          field.onBlur();
          p.onPicked?.(row);
          modal.close();
        };
        return (
          <>
            <TextInput
              label={p.label}
              description={p.description}
              withAsterisk={p.required}
              disabled={p.disabled}
              readOnly
              value={shown}
              placeholder={p.placeholder ?? '未選択'}
              error={fieldState.error?.message}
              onClick={() => !p.disabled && modal.open()}
              style={{ cursor: p.disabled ? undefined : 'pointer' }}
              rightSection={
                !p.required && field.value && !p.disabled ? (
                  <Tooltip label="選択を解除">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`${p.label}の選択を解除`}
                      onClick={() => choose(null)}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  </Tooltip>
                ) : null
              }
              inputContainer={(input) => (
                <Group gap="xs" wrap="nowrap">
                  <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
                  <Button
                    variant="default"
                    leftSection={<IconListSearch size={16} />}
                    onClick={modal.open}
                    disabled={p.disabled}
                    aria-label={`${p.label}を選択`}
                  >
                    選択
                  </Button>
                </Group>
              )}
            />
            {opened && (
              <PickerModal
                opened={opened}
                onClose={modal.close}
                title={p.title}
                source={p.source}
                pinned={p.current ? [p.current] : []}
                onPick={choose}
              />
            )}
          </>
        );
      }}
    />
  );
}
