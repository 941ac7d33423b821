import { jstDayOf, jstDayRange, shiftJstDay, tripLabels } from '@fleet/contract';
import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { DateField } from '../../components/date-fields';

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
      <DateField
        label={tripLabels.date}
        value={value}
        max={today}
        onChange={(v) => {
          if (jstDayRange(v)) onChange(v);
        }}
        w={140}
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
