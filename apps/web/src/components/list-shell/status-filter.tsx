import { SegmentedControl } from '@mantine/core';

/** The status switch over a log of sends (mail, webhook calls): all, then each status by its label. */
export function StatusFilter<S extends string>({
  value,
  labels,
  allLabel,
  onChange,
}: {
  value: S | 'all';
  labels: Record<S, string>;
  allLabel: string;
  onChange(status: S | 'all'): void;
}) {
  return (
    <SegmentedControl
      mb="md"
      value={value}
      onChange={(v) => onChange(v as S | 'all')}
      data={[
        { value: 'all', label: allLabel },
        ...(Object.entries(labels) as [S, string][]).map(([v, label]) => ({ value: v, label })),
      ]}
    />
  );
}
