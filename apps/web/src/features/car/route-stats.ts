/** Distance along a route in km (haversine), and the route's duration and top speed. */
const R = 6371;
const rad = (d: number) => (d * Math.PI) / 180;

export function routeStats(points: { lat: number; lng: number; recorded_at: string; speed: number | null }[]) {
  let km = 0;
  let top = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const h =
      Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
      Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
    km += 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  for (const p of points) top = Math.max(top, p.speed ?? 0);
  const minutes =
    points.length > 1
      ? (Date.parse(points[points.length - 1]!.recorded_at) - Date.parse(points[0]!.recorded_at)) / 60_000
      : 0;
  return { km, minutes, top };
}
