import { Badge, Text } from '@mantine/core';

const color = { pending: 'yellow', sent: 'teal', failed: 'red' } as const;

/** The state of something sent with retries (a mail, a webhook call): its badge, and the last error under it. */
export function SendStatus({
  status,
  label,
  error,
}: {
  status: keyof typeof color;
  label: string;
  error?: string | null;
}) {
  return (
    <>
      <Badge color={color[status]} variant="light">
        {label}
      </Badge>
      {error && (
        <Text size="xs" c="red" lineClamp={2}>
          {error}
        </Text>
      )}
    </>
  );
}
