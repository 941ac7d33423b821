/** The route line's colours by speed (走行ルート's legend): from slow blue to red above 80 km/h. */
export const speedBands = [
  { below: 20, color: '#1c7ed6', label: '〜20 km/h' },
  { below: 40, color: '#12b886', label: '20〜40 km/h' },
  { below: 60, color: '#fab005', label: '40〜60 km/h' },
  { below: 80, color: '#f76707', label: '60〜80 km/h' },
  { below: Infinity, color: '#e03131', label: '80 km/h〜' },
] as const;

/** Without a reported speed: grey. */
export const UNKNOWN_SPEED_COLOR = '#868e96';

export const speedColor = (kmh: number | null | undefined) =>
  kmh === null || kmh === undefined ? UNKNOWN_SPEED_COLOR : speedBands.find((b) => kmh < b.below)!.color;

/**
 * The line cut into runs of one colour (a segment takes its starting point's speed), each run sharing its
 * end point with the next so the line has no gaps: a few polylines instead of one per segment.
 */
export function speedRuns(points: readonly { lat: number; lng: number; speed?: number | null }[]) {
  const runs: { color: string; positions: [number, number][] }[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const color = speedColor(a.speed);
    const run = runs[runs.length - 1];
    if (run && run.color === color) run.positions.push([b.lat, b.lng]);
    else
      runs.push({
        color,
        positions: [
          [a.lat, a.lng],
          [b.lat, b.lng],
        ],
      });
  }
  return runs;
}
