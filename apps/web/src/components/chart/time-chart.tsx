import 'uplot/dist/uPlot.min.css';
import { readingNumber, withUnit } from '@fleet/contract';
import { Box, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { timeTicks } from './time-ticks';

export interface ChartSeries {
  label: string;
  /** One value per x; null leaves a gap. */
  values: (number | null)[];
  color: string;
  unit?: string;
}

/** Room for the longest tick label of a value axis (「2000rpm」 must not be cut). */
const axisWidth = (_u: uPlot, values: string[] | null) =>
  values?.length ? Math.max(...values.map((v) => v.length)) * 8 + 24 : 40;

/** A time-series chart drawn with uPlot (canvas; stays fast at 10^5 points). x is epoch seconds, shown in Japan time. */
export function TimeChart({
  x,
  series,
  height = 220,
  title,
}: {
  x: number[];
  series: ChartSeries[];
  height?: number;
  title: string;
}) {
  const { ref, width } = useElementSize();
  const holder = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    if (!holder.current || width === 0) return;
    const opts: uPlot.Options = {
      width,
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Asia/Tokyo'),
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      axes: [
        {
          stroke: '#666',
          size: 44,
          values: (_u: uPlot, splits: number[], _axis: number, _space: number, incr: number) => timeTicks(splits, incr),
        },
        ...series.map((s, i) => ({
          stroke: s.color,
          side: i === 0 ? 3 : 1,
          scale: s.unit ?? s.label,
          grid: { show: i === 0 },
          values: (_u: uPlot, v: number[]) => v.map((n) => withUnit(n, s.unit)),
          size: axisWidth,
        })),
      ],
      series: [
        { label: '時刻', value: '{YYYY}/{MM}/{DD} {HH}:{mm}' },
        ...series.map((s) => ({
          label: s.unit ? `${s.label} (${s.unit})` : s.label,
          // The legend's value as the table's cell: the unit is in the label, the decimals are the unit's.
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : readingNumber(v, s.unit)),
          stroke: s.color,
          width: 1.5,
          scale: s.unit ?? s.label,
          spanGaps: false,
          points: { show: x.length < 200 },
        })),
      ],
    };
    plot.current?.destroy();
    plot.current = new uPlot(opts, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, holder.current);
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
  }, [x, series, width, height]);

  return (
    <Box ref={ref} w="100%" role="img" aria-label={title} data-testid="time-chart">
      <Text size="sm" fw={600} mb={4}>
        {title}
      </Text>
      <div ref={holder} />
    </Box>
  );
}
