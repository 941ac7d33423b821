import { Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { totpTexts as T } from './texts';

/** The dark modules of a QR code as one SVG path; `qrcode` loads only when a code is shown. */
async function qrPath(text: string) {
  const { create } = await import('qrcode');
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let d = '';
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) d += `M${col} ${row}h1v1h-1z`;
  return { d, size: modules.size };
}

/** A QR code drawn as SVG (no image URL, nothing for the content policy to allow). */
export function QrCode({ text, size = 200 }: { text: string; size?: number }) {
  const qr = useQuery({ queryKey: ['qr-code', text], queryFn: () => qrPath(text), staleTime: Infinity, gcTime: 0 });
  if (qr.isError)
    return (
      <Text c="red" size="sm">
        {T.qrFailed}
      </Text>
    );
  if (!qr.data) return <Skeleton w={size} h={size} />;
  const quiet = 2;
  const box = qr.data.size + quiet * 2;
  return (
    <svg
      role="img"
      aria-label={T.qrAlt}
      width={size}
      height={size}
      viewBox={`${-quiet} ${-quiet} ${box} ${box}`}
      shapeRendering="crispEdges"
      style={{ background: '#fff' }}
    >
      <path d={qr.data.d} fill="#000" />
    </svg>
  );
}
