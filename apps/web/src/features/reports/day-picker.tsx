import { jstDayOf, jstDayRange, shiftJstDay, tripLabels } from '@fleet/contract';
import { Button, Group, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

/** A day in Japan (YYYY-MM-DD) with 前日 / 翌日; no day after today. */
export function DayPicker({ value, onChange }: { value: string; onChange(day: string): void }) {
  const today = jstDayOf(new Date());
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Button
        variant="default"
        flex="none"
        px="sm"
        leftSection={<IconChevronLeft size={16} />}
        onClick={() => onChange(shiftJstDay(value, -1))}
      >
        {tripLabels.previousDay}
      </Button>
      <TextInput
        type="date"
        label={tripLabels.date}
        value={value}
        max={today}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (jstDayRange(v)) onChange(v);
        }}
        flex="0 1 170px"
        miw={0}
      />
      <Button
        variant="default"
        flex="none"
        px="sm"
        rightSection={<IconChevronRight size={16} />}
        onClick={() => onChange(shiftJstDay(value, 1))}
        disabled={value >= today}
      >
        {tripLabels.nextDay}
      </Button>
    </Group>
  );
}
