import { errorMessages } from '@fleet/contract';
import { Button, Card, Group, MultiSelect, Radio, Stack, Text, Title, type CardProps } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { messageOf } from '../lib/api-client';

export interface SelectionCardProps<C> {
  texts: {
    title: string;
    label: string;
    placeholder?: string;
    /** The placeholder while nothing is chosen, where nothing chosen has a name of its own (e.g. 未所属). */
    none?: string;
    save: string;
    saved: string;
    /** Under the select when there is nothing to choose from. */
    noOptions?: string;
    /** In the dropdown when the search matches nothing. */
    nothingFound?: string;
  };
  /** What may be chosen; undefined until loaded. */
  options: { value: string; label: string }[] | undefined;
  /** The saved selection as read from the server. */
  current: UseQueryResult<C>;
  /** The ids chosen in it; null for "all", only where `whole` is offered. */
  chosenOf: (current: C) => string[] | null;
  /** The save in progress or failed. */
  update: { isPending: boolean; isError: boolean; error: unknown };
  /** Saves the ids chosen (`all`: "all" was chosen instead) and calls `done` once saved. */
  save: (selection: { ids: string[]; all: boolean }, done: () => void) => void;
  /** Offers "all" beside "only those chosen", as a radio above the select. */
  whole?: { whole: string; limited: string; help: string; noneChosen: string };
  /** Shown instead of the editor, to those who may not change the selection. */
  view?: ReactNode;
  /** Shows the selection without letting it change. */
  locked?: boolean;
  /** Below the save button. */
  children?: ReactNode;
  mt?: CardProps['mt'];
  selectMaw?: number;
}

/** A card that loads a saved selection of ids, lets it be changed in a multi-select and saves it as a whole. */
export function SelectionCard<C>(p: SelectionCardProps<C>) {
  const { texts: t, current, update, chosenOf } = p;
  const [limited, setLimited] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!current.data) return;
    const ids = chosenOf(current.data);
    setLimited(ids !== null);
    setChosen(ids ?? []);
    // chosenOf is a pure reading of the data: the server's answer alone resets the choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current.data]);
  const showsSelect = !p.whole || limited;
  return (
    <Card withBorder radius="md" padding="md" mt={p.mt}>
      <Title order={2} size="h5" mb="xs">
        {t.title}
      </Title>
      {p.view ?? (
        <Stack gap="xs">
          {p.whole && (
            <WholeOrLimited
              texts={p.whole}
              limited={limited}
              onChange={(v) => {
                setLimited(v);
                setSaved(false);
              }}
            />
          )}
          {showsSelect && (
            <>
              <MultiSelect
                label={t.label}
                placeholder={chosen.length ? t.placeholder : (t.none ?? t.placeholder)}
                data={p.options ?? []}
                value={chosen}
                onChange={(v) => {
                  setChosen(v);
                  setSaved(false);
                }}
                disabled={p.locked}
                searchable
                clearable
                nothingFoundMessage={t.nothingFound}
                maw={p.selectMaw}
              />
              {t.noOptions && p.options?.length === 0 && <Hint>{t.noOptions}</Hint>}
              {p.whole && chosen.length === 0 && (
                <Text size="xs" c="orange.8">
                  {p.whole.noneChosen}
                </Text>
              )}
            </>
          )}
          {!p.locked && (
            <Group>
              <Button
                size="xs"
                loading={update.isPending}
                disabled={!current.data}
                onClick={() => p.save({ ids: chosen, all: !showsSelect }, () => setSaved(true))}
              >
                {t.save}
              </Button>
              {saved && (
                <Text size="xs" c="teal.8" role="status">
                  {t.saved}
                </Text>
              )}
            </Group>
          )}
          {p.children}
          {update.isError && <Failure>{messageOf(update.error, errorMessages.updateFailed)}</Failure>}
          {current.isError && <Failure>{messageOf(current.error, errorMessages.fetchFailed)}</Failure>}
        </Stack>
      )}
    </Card>
  );
}

function WholeOrLimited(p: {
  texts: { whole: string; limited: string; help: string };
  limited: boolean;
  onChange: (limited: boolean) => void;
}) {
  return (
    <>
      <Radio.Group value={p.limited ? 'limited' : 'whole'} onChange={(v) => p.onChange(v === 'limited')}>
        <Group gap="lg">
          <Radio value="whole" label={p.texts.whole} />
          <Radio value="limited" label={p.texts.limited} />
        </Group>
      </Radio.Group>
      <Hint>{p.texts.help}</Hint>
    </>
  );
}

function Hint({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed">
      {children}
    </Text>
  );
}

function Failure({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="red" role="alert">
      {children}
    </Text>
  );
}
